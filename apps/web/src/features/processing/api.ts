import {
  type ChannelPause,
  DEFAULT_PAGE_SIZE,
  type JobListDryRunFilter,
  type Paged,
  type ProcessedSubmission,
  type ProcessingJob,
  type ProcessingJobStatus,
  type ProcessingStep,
  type ProcessingSummary,
  type RecapStatus,
} from "@curate/core";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import type { ProcessingSearch } from "./search";
import { jobsPollInterval, rowsPollInterval, stepsPollInterval } from "./view";

// Reads only; the retries live in ./mutations. The feed page's badge reads the summary from here, and the feed
// layout is on the way to every feed tab, so it must not carry the mutation code.

/** Rows per page of the processing tab (the API's default page size). */
export const PROCESSING_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const processingKeys = {
  all: ["processing"] as const,
  /** Everything of one feed: what Refresh asks for again. */
  feed: (feedId: string) => [...processingKeys.all, feedId] as const,
  rows: (feedId: string) => [...processingKeys.feed(feedId), "rows"] as const,
  rowList: (feedId: string, search: ProcessingSearch) => [...processingKeys.rows(feedId), search] as const,
  /** A submission's jobs: the runs and the dry runs below it, so invalidating this refreshes both lists. */
  jobs: (feedId: string, submissionId: string) =>
    [...processingKeys.feed(feedId), "jobs", submissionId] as const,
  jobList: (feedId: string, submissionId: string, dryRuns: JobListDryRunFilter) =>
    [...processingKeys.jobs(feedId, submissionId), dryRuns] as const,
  allSteps: (feedId: string) => [...processingKeys.feed(feedId), "steps"] as const,
  steps: (feedId: string, jobId: string) => [...processingKeys.allSteps(feedId), jobId] as const,
  summary: (feedId: string) => [...processingKeys.feed(feedId), "summary"] as const,
  pauses: (feedId: string) => [...processingKeys.feed(feedId), "pauses"] as const,
  /** The feed's recaps and their runs. */
  recaps: (feedId: string) => [...processingKeys.feed(feedId), "recaps"] as const,
  recapStatuses: (feedId: string) => [...processingKeys.recaps(feedId), "statuses"] as const,
  recapRuns: (feedId: string) => [...processingKeys.recaps(feedId), "runs"] as const,
};

const feedPath = (feedId: string) => `/processing/feeds/${encodeURIComponent(feedId)}`;

/** The tab's rows: the feed's approved submissions with their latest job, a page at a time (Load More). */
export const processedSubmissionsQueryOptions = (feedId: string, search: ProcessingSearch) =>
  infiniteQueryOptions({
    queryKey: processingKeys.rowList(feedId, search),
    queryFn: ({ pageParam, signal }) =>
      api<Paged<ProcessedSubmission>>(`${feedPath(feedId)}/submissions`, {
        signal,
        query: { page: pageParam, limit: PROCESSING_PAGE_SIZE, failures: search.failures },
      }),
    initialPageParam: 0 as number,
    getNextPageParam: (last) => (last.pagination.hasNextPage ? last.pagination.page + 1 : undefined),
    refetchInterval: (query) => rowsPollInterval(query.state.data?.pages),
  });

/**
 * A submission's jobs in this feed, newest first: those that ran (`exclude`) or its dry runs (`only`), which
 * the server keeps apart so previews never push real jobs down. Polled while one is waiting or running.
 */
export const submissionJobsQueryOptions = (
  feedId: string,
  submissionId: string,
  dryRuns: JobListDryRunFilter = "exclude",
) =>
  queryOptions({
    queryKey: processingKeys.jobList(feedId, submissionId, dryRuns),
    queryFn: async ({ signal }) =>
      (
        await api<{ jobs: ProcessingJob[] }>(`/processing/jobs/${encodeURIComponent(submissionId)}`, {
          signal,
          query: { feedId, dryRuns },
        })
      ).jobs,
    refetchInterval: (query) => jobsPollInterval(query.state.data),
  });

/** A job's steps in order; polled while one is processing or the job (as last read) is still running. */
export const jobStepsQueryOptions = (feedId: string, jobId: string, jobStatus?: ProcessingJobStatus) =>
  queryOptions({
    queryKey: processingKeys.steps(feedId, jobId),
    queryFn: async ({ signal }) =>
      (
        await api<{ steps: ProcessingStep[] }>(`/processing/jobs/${encodeURIComponent(jobId)}/steps`, {
          signal,
        })
      ).steps,
    refetchInterval: (query) => stepsPollInterval(query.state.data, jobStatus),
  });

/** Failed or partly failed jobs of the last 24 hours, for the feed page's badge. */
export const processingSummaryQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: processingKeys.summary(feedId),
    queryFn: ({ signal }) => api<ProcessingSummary>(`${feedPath(feedId)}/summary`, { signal }),
  });

/**
 * The feed's channels paused because they refused its credentials (owners and admins). Anyone else gets a 403,
 * which here means "nothing to show", so it is not retried.
 */
export const channelPausesQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: processingKeys.pauses(feedId),
    queryFn: async ({ signal }) =>
      (await api<{ pauses: ChannelPause[] }>(`${feedPath(feedId)}/pauses`, { signal })).pauses,
    retry: false,
  });

/** The feed's recaps: schedule in words, next run, what earlier runs covered. */
export const recapStatusesQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: processingKeys.recapStatuses(feedId),
    queryFn: async ({ signal }) =>
      (await api<{ recaps: RecapStatus[] }>(`${feedPath(feedId)}/recaps`, { signal })).recaps,
  });

/** The feed's recap runs, newest first, a page at a time; polled while one is waiting or running. */
export const recapRunsQueryOptions = (feedId: string) =>
  infiniteQueryOptions({
    queryKey: processingKeys.recapRuns(feedId),
    queryFn: ({ pageParam, signal }) =>
      api<Paged<ProcessingJob>>(`${feedPath(feedId)}/recap-runs`, {
        signal,
        query: { page: pageParam, limit: PROCESSING_PAGE_SIZE },
      }),
    initialPageParam: 0 as number,
    getNextPageParam: (last) => (last.pagination.hasNextPage ? last.pagination.page + 1 : undefined),
    refetchInterval: (query) => jobsPollInterval(query.state.data?.pages.flatMap((page) => page.items)),
  });
