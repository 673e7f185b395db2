import { Button } from "./button";

interface PagerProps {
  /** Zero-based. */
  page: number;
  hasNextPage: boolean;
  onPage: (page: number) => void;
}

/** Previous / Next under a paged list; nothing when the list fits on its first page. */
export function Pager({ page, hasNextPage, onPage }: PagerProps) {
  if (!hasNextPage && page === 0) return null;
  return (
    <div className="flex justify-end gap-2">
      <Button size="sm" variant="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Button size="sm" variant="secondary" disabled={!hasNextPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </div>
  );
}
