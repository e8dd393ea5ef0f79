import { PageHeader } from './page-header.tsx';

interface PlaceholderPageProps {
  title: string;
  subtitle?: string;
}

/** A signed-in area whose screens are still being built: the title, and an honest note. */
export function PlaceholderPage({ title, subtitle }: PlaceholderPageProps) {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>{`${title} · VitalWatch`}</title>
      <PageHeader title={title} subtitle={subtitle} />
      <section
        aria-label={`${title} content`}
        className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center dark:border-slate-700 dark:bg-slate-900"
      >
        <p className="font-medium text-slate-800 dark:text-slate-100">This screen is coming soon.</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Its content is being built; nothing here needs your attention yet.
        </p>
      </section>
    </div>
  );
}
