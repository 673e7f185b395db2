import { DEFAULT_PAGE_SIZE, type Paged, type Publication } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

// Reads only; the retraction lives in ./mutations.

/** Entries per page of a ledger list. */
export const LEDGER_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const publicationKeys = {
  all: ["publications"] as const,
  submission: (submissionId: string) => [...publicationKeys.all, "submission", submissionId] as const,
  submissionPage: (submissionId: string, page: number) =>
    [...publicationKeys.submission(submissionId), page] as const,
  job: (jobId: string) => [...publicationKeys.all, "job", jobId] as const,
  jobPage: (jobId: string, page: number) => [...publicationKeys.job(jobId), page] as const,
};

/** A list is polled while a retraction is on its way (an entry still published with a retraction asked for). */
const POLL_MS = 3000;
const pollWhile = (waiting: boolean | undefined) => (waiting ? POLL_MS : false);

/** Where a submission went, in every feed of it the signed-in user moderates (the submission page). */
export const submissionPublicationsQueryOptions = (submissionId: string, page = 0, watching = false) =>
  queryOptions({
    queryKey: publicationKeys.submissionPage(submissionId, page),
    queryFn: ({ signal }) =>
      api<Paged<Publication>>(`/submissions/${encodeURIComponent(submissionId)}/publications`, {
        signal,
        query: { page, limit: LEDGER_PAGE_SIZE },
      }),
    refetchInterval: () => pollWhile(watching),
  });

/** What a job published, or what a retraction job took back (the processing tab). */
export const jobPublicationsQueryOptions = (jobId: string, page = 0, watching = false) =>
  queryOptions({
    queryKey: publicationKeys.jobPage(jobId, page),
    queryFn: ({ signal }) =>
      api<Paged<Publication>>(`/processing/jobs/${encodeURIComponent(jobId)}/publications`, {
        signal,
        query: { page, limit: LEDGER_PAGE_SIZE },
      }),
    refetchInterval: () => pollWhile(watching),
  });
