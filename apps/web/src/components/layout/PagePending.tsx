import { Skeleton } from "#web/components/ui/skeleton";
import { PageContainer } from "./PageContainer";

/** What a page shows while its code is still loading: the layout stays, with a sign of work in the middle. */
export function PagePending() {
  return (
    <PageContainer className="flex flex-col gap-4" aria-busy="true">
      <p className="text-sm text-muted" role="status">
        Loading...
      </p>
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-32 w-full" />
    </PageContainer>
  );
}
