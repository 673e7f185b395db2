import type { ProcessingJobStatus } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Skeleton } from "#web/components/ui/skeleton";
import { jobPublicationsQueryOptions } from "../api";
import { PublicationList } from "./PublicationList";

interface JobPublicationsProps {
  jobId: string;
  jobStatus: ProcessingJobStatus;
  /** A retraction job lists what it took back; any other what it published. */
  retraction: boolean;
}

/** The publish ledger of one job, under its steps on the processing tab. */
export function JobPublications({ jobId, jobStatus, retraction }: JobPublicationsProps) {
  const [page, setPage] = useState(0);
  const running = jobStatus === "pending" || jobStatus === "processing";
  const { data, status, error } = useQuery(jobPublicationsQueryOptions(jobId, page, running));
  const headingId = `publications-${jobId}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2" data-testid="job-publications">
      <h4 id={headingId} className="text-sm font-semibold">
        {retraction ? "Publications it took back" : "Published by this job"}
      </h4>
      {status === "pending" ? (
        <Skeleton className="h-12 w-full" />
      ) : status === "error" ? (
        <Alert>Error loading publications: {error.message}</Alert>
      ) : data.items.length === 0 ? (
        <p className="text-sm text-muted">
          {running ? "Nothing yet." : retraction ? "Nothing was taken back." : "Nothing was published."}
        </p>
      ) : (
        <>
          <PublicationList items={data.items} actions={retraction ? undefined : () => true} />
          {data.pagination.hasNextPage || page > 0 ? (
            <div className="flex justify-end gap-2">
              <Button size="sm" variant="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={!data.pagination.hasNextPage}
                onClick={() => setPage(page + 1)}
              >
                Next
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
