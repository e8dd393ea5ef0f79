import type { ReactNode } from 'react';

/** Body text of the help pages: paragraphs, lists, links and key terms, in both themes. */
const PROSE =
  'space-y-3 text-slate-700 dark:text-slate-300 [&_a]:font-medium [&_a]:text-teal-700 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-teal-400 [&_strong]:font-semibold [&_strong]:text-slate-900 dark:[&_strong]:text-white [&_ul]:list-disc [&_ul]:space-y-1.5 [&_ul]:pl-5';

interface HelpArticleProps {
  title: string;
  /** One or two sentences under the heading: what the page answers. */
  lead: ReactNode;
  children: ReactNode;
}

/** A public help page (guide, FAQ, support, about): its one heading, a lead and its sections. */
export function HelpArticle({ title, lead, children }: HelpArticleProps) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <title>{`${title} · VitalWatch`}</title>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
        {title}
      </h1>
      <div className="mt-4 text-lg text-slate-600 dark:text-slate-300">{lead}</div>
      <div className="mt-10 space-y-12">{children}</div>
    </article>
  );
}

interface HelpSectionProps {
  /** The anchor a table of contents links to. */
  id: string;
  title: string;
  children: ReactNode;
}

/** One titled part of a help page. */
export function HelpSection({ id, title, children }: HelpSectionProps) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20">
      <h2
        id={`${id}-title`}
        className="mb-4 text-xl font-semibold text-slate-900 sm:text-2xl dark:text-white"
      >
        {title}
      </h2>
      <div className={PROSE}>{children}</div>
    </section>
  );
}

/** A highlighted note inside a section (emergencies, things that are easy to miss). */
export function HelpNote({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100 [&_strong]:text-amber-950 dark:[&_strong]:text-amber-50">
      {children}
    </div>
  );
}
