import { Button } from '@/components/button.tsx';

interface PagerProps {
  /** What is paged, for screen readers ('devices', 'users'). */
  label: string;
  pageNumber: number;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** Previous / Next under a paged list: a page of at most 50 rows is in the page at a time. */
export function Pager({ label, pageNumber, hasNext, busy, onPrevious, onNext }: PagerProps) {
  if (pageNumber === 1 && !hasNext) return null;
  return (
    <nav aria-label={`Pages of ${label}`} className="mt-4 flex items-center justify-between gap-3">
      <Button variant="secondary" disabled={pageNumber === 1 || busy} onClick={onPrevious}>
        Previous
      </Button>
      <span className="text-sm text-slate-600 tabular-nums dark:text-slate-400">{`Page ${pageNumber}`}</span>
      <Button variant="secondary" disabled={!hasNext || busy} onClick={onNext}>
        Next
      </Button>
    </nav>
  );
}
