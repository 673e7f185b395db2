import {
  BULK_DECISION_LIMIT,
  type BulkFilter,
  type BulkRun,
  displayHandle,
  type ListSearch,
  type Submission,
} from "@curate/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { InboxIcon } from "lucide-react";
import { type MouseEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Card, CardContent } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";
import { appConfigQueryOptions } from "#web/features/config/api";
import { PreviewButton } from "#web/features/dry-runs/components/PreviewButton";
import { isActiveBulkRun, latestBulkRunQueryOptions, useCanModerate } from "#web/features/moderation/api";
import { BulkDecisionBar } from "#web/features/moderation/components/BulkDecisionBar";
import { BulkRunProgress } from "#web/features/moderation/components/BulkRunProgress";
import { DecisionNote, latestDecision } from "#web/features/moderation/components/DecisionNote";
import { ModerationControls, noteInputId } from "#web/features/moderation/components/ModerationControls";
import { ShortcutHint } from "#web/features/moderation/components/ShortcutHint";
import { UndoWindowAction } from "#web/features/moderation/components/UndoWindowAction";
import { type TriageDecision, useTriage } from "#web/features/moderation/hooks/use-triage";
import {
  type ModerateVariables,
  type ModerationAction,
  type Undoable,
  useBulkModerate,
  useBulkRunEnded,
  useModerateSubmission,
  useStartBulkRun,
  useUndoDecisions,
} from "#web/features/moderation/mutations";
import { isTypingTarget } from "#web/features/moderation/triage";
import { RetractAction } from "#web/features/publications/components/RetractAction";
import { QueueHealth } from "#web/features/queues/components/QueueHealth";
import { ReminderSettings } from "#web/features/queues/components/ReminderSettings";
import {
  type SubmissionFilters as Filters,
  feedSubmissionsHeadQueryOptions,
  feedSubmissionsInfiniteQueryOptions,
  loadedItems,
  toSubmissionFilters,
} from "#web/features/submissions/api";
import { SubmissionCard } from "#web/features/submissions/components/SubmissionCard";
import { SubmissionFilters } from "#web/features/submissions/components/SubmissionFilters";
import { SubmissionList } from "#web/features/submissions/components/SubmissionList";
import { formatTotal } from "#web/lib/format";

interface FeedCurationProps {
  feedId: string;
  search: ListSearch;
  onFiltersChange: (patch: Partial<Filters>) => void;
}

/** The curation tab: this feed's submissions, newest first by default, with moderation for its moderators. */
export function FeedCuration({ feedId, search, onFiltersChange }: FeedCurationProps) {
  const filters = toSubmissionFilters(search);
  const canModerate = useCanModerate(feedId);

  return (
    <section aria-labelledby="curation-title" className="flex flex-col gap-5">
      <SectionHeader
        id="curation-title"
        title="Recent Curation"
        actions={canModerate ? <ShortcutHint /> : null}
      />
      <Card>
        <CardContent className="flex flex-col gap-3">
          <QueueHealth feedId={feedId} />
          {canModerate ? <ReminderSettings feedId={feedId} /> : null}
        </CardContent>
      </Card>
      <SubmissionFilters filters={filters} onChange={onFiltersChange} />
      <CurationList key={feedId} feedId={feedId} filters={filters} canModerate={canModerate} />
    </section>
  );
}

const ACTION_WORDS = {
  approve: { past: "Approved", verb: "approve" },
  reject: { past: "Rejected", verb: "reject" },
} as const;

const idOf = (submission: Submission) => submission.tweetId;

interface CurationListProps {
  feedId: string;
  filters: Filters;
  canModerate: boolean;
}

function CurationList({ feedId, filters, canModerate }: CurationListProps) {
  const options = feedSubmissionsInfiniteQueryOptions(feedId, filters);
  // The same cached query the list renders; read here for keyboard triage over the loaded items.
  const { data } = useInfiniteQuery(options);
  const items = useMemo(() => loadedItems(data?.pages ?? []), [data]);
  // Open note fields and their drafts, by submission; a draft survives a failed decision.
  const [notes, setNotes] = useState<Record<string, string | undefined>>({});
  const [announcement, setAnnouncement] = useState("");

  const setNote = useCallback((submissionId: string, note: string | undefined) => {
    setNotes((previous) => ({ ...previous, [submissionId]: note }));
  }, []);

  const author = (submissionId: string) => {
    const item = items.find((candidate) => candidate.tweetId === submissionId);
    return item ? `post by ${displayHandle(item.platform, item.username)}` : "post";
  };

  const undo = useUndoDecisions(feedId);
  const lastUndoable = useRef<Undoable | null>(null);
  // u pressed while an approval was still on its way: it is taken back as soon as the server confirms it.
  const undoOnArrival = useRef(false);
  const decisionsInFlight = useRef(0);
  const undoCallbacks = {
    onUndoable: (undoable: Undoable) => {
      if (undoOnArrival.current) {
        undoOnArrival.current = false;
        undoCallbacks.onUndo(undoable.submissionIds);
        return;
      }
      lastUndoable.current = undoable;
    },
    onUndo: (submissionIds: string[]) => {
      lastUndoable.current = null;
      undo.mutate(submissionIds);
    },
  };
  // u takes back the latest approval (or bulk approval) while its undo window is open.
  const undoLatest = useRef(undoCallbacks.onUndo);
  undoLatest.current = undoCallbacks.onUndo;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "u" || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented)
        return;
      if (isTypingTarget(event.target)) return;
      const latest = lastUndoable.current;
      if (!latest || latest.until < Date.now()) {
        if (decisionsInFlight.current > 0) {
          event.preventDefault();
          undoOnArrival.current = true;
        }
        return;
      }
      event.preventDefault();
      undoLatest.current(latest.submissionIds);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  const { moderate, inFlight: busy } = useModerateSubmission(feedId, {
    ...undoCallbacks,
    // A decision that settles without an undo window (a rejection, an immediate feed) drops a u waiting for it.
    onDecided: ({ submissionId }) => {
      undoOnArrival.current = false;
      setNote(submissionId, undefined);
    },
    onFailed: ({ submissionId, action }: ModerateVariables) => {
      undoOnArrival.current = false;
      setAnnouncement(`Could not ${ACTION_WORDS[action].verb} ${author(submissionId)}; it is pending again.`);
    },
  });

  const selection = useSelection(items, (submission) => canModerate && submission.status === "pending");
  const bulk = useBulkModerate(feedId, {
    ...undoCallbacks,
    onSettled: () => {
      undoOnArrival.current = false;
      selection.clear();
    },
  });
  decisionsInFlight.current = busy.size + (bulk.isPending ? 1 : 0);
  // Every pending post the search matches, counted on the server, for "Select all N matching".
  const { data: pendingHead } = useQuery({
    ...feedSubmissionsHeadQueryOptions(feedId, { ...filters, status: "pending" }),
    enabled: canModerate && selection.count > 0,
  });
  // Past the search's count cap the number matching is not known: no "Select all" then.
  const matchingCount =
    pendingHead && !pendingHead.pagination.totalCountCapped ? pendingHead.pagination.totalCount : null;
  // What "Select all N matching" names to the server: the same search and network the list applies.
  const matchingFilter: BulkFilter = {
    ...(filters.q ? { q: filters.q } : {}),
    ...(filters.platform !== "all" ? { platform: filters.platform } : {}),
  };
  const run = useBulkRun(feedId, canModerate);
  const startRun = useStartBulkRun(feedId);

  const decideSelection = (action: ModerationAction, note: string) => {
    if (selection.allMatching && (matchingCount ?? 0) > BULK_DECISION_LIMIT) {
      startRun.mutate({ action, note, filter: matchingFilter }, { onSuccess: selection.clear });
      setAnnouncement(
        `${action === "approve" ? "Approving" : "Rejecting"} ${matchingCount} posts in the background.`,
      );
      return;
    }
    bulk.mutate({
      action,
      note,
      selection: selection.allMatching ? { matching: matchingFilter } : { submissionIds: [...selection.ids] },
    });
    setAnnouncement(
      `${action === "approve" ? "Approving" : "Rejecting"} ${selection.allMatching ? (matchingCount ?? 0) : selection.count} posts.`,
    );
  };

  const decide = (submission: Submission, action: ModerationAction) => {
    if (busy.has(submission.tweetId)) return;
    if (!moderate({ submissionId: submission.tweetId, action, note: notes[submission.tweetId] })) return;
    setAnnouncement(
      `${ACTION_WORDS[action].past} post by ${displayHandle(submission.platform, submission.username)}.`,
    );
    // The clicked button goes away with the pending status; keep focus on the item instead of losing it.
    if (document.activeElement instanceof HTMLButtonElement) triage.focusItem(submission.tweetId);
  };

  const canDecide = (submission: Submission) =>
    canModerate && submission.status === "pending" && !busy.has(submission.tweetId);

  const triage = useTriage<Submission>({
    items,
    getId: idOf,
    canDecide,
    onCommand: (command: TriageDecision, submission) => {
      if (command === "select") {
        selection.toggle(submission.tweetId, false);
        return;
      }
      if (command !== "note") {
        decide(submission, command);
        return;
      }
      if (notes[submission.tweetId] === undefined) setNote(submission.tweetId, "");
      // The field may only mount with this render; focus it once it exists.
      requestAnimationFrame(() => document.getElementById(noteInputId(submission.tweetId))?.focus());
    },
  });

  return (
    <div ref={triage.listRef}>
      <p className="sr-only" aria-live="polite" data-testid="triage-announcer">
        {announcement}
      </p>
      <SubmissionList
        options={options}
        headOptions={feedSubmissionsHeadQueryOptions(feedId, filters)}
        empty={
          filters.status === "all" && !filters.q && filters.platform === "all" ? (
            <FirstSubmissionHint feedId={feedId} />
          ) : undefined
        }
        renderSummary={(total, capped) => (
          <p className="text-sm text-muted" data-testid="submission-total">
            {formatTotal(total, capped)} {total === 1 && !capped ? "submission" : "submissions"}
          </p>
        )}
        renderItem={(submission, index) => {
          const decision = latestDecision(submission.moderationHistory, feedId);
          const showControls = canModerate && submission.status === "pending";
          const undoUntil = submission.feeds.find((link) => link.feedId === feedId)?.tally?.undoUntil;
          const retract =
            canModerate && submission.status === "approved" ? (
              <div className="flex flex-wrap items-center gap-2">
                {undoUntil ? (
                  <UndoWindowAction
                    until={undoUntil}
                    author={displayHandle(submission.platform, submission.username)}
                    busy={undo.isPending}
                    onUndo={() => undo.mutate([submission.tweetId])}
                  />
                ) : null}
                <RetractAction
                  feedId={feedId}
                  submissionId={submission.tweetId}
                  author={displayHandle(submission.platform, submission.username)}
                />
              </div>
            ) : null;
          const selected = selection.allMatching ? showControls : selection.ids.has(submission.tweetId);
          return (
            <div
              {...triage.itemProps(submission, index)}
              role="group"
              aria-label={`Post ${index + 1} by ${displayHandle(submission.platform, submission.username)}, ${submission.status}`}
              // The item being worked on keeps an accent edge while focus is on its buttons or note.
              className="scroll-mt-24 scroll-mb-6 rounded-md focus-visible:outline-offset-4 data-current:[&:focus-within>div]:border-accent"
            >
              {showControls ? (
                <label className="mb-1.5 flex w-fit cursor-pointer items-center gap-2 text-xs text-muted">
                  <input
                    type="checkbox"
                    className="size-4 accent-(--color-accent)"
                    checked={selected}
                    disabled={selection.allMatching}
                    data-testid="select-submission"
                    aria-label={`Select post by ${displayHandle(submission.platform, submission.username)}`}
                    onClick={(event: MouseEvent<HTMLInputElement>) =>
                      selection.toggle(submission.tweetId, event.shiftKey)
                    }
                    onChange={() => undefined}
                  />
                  Select
                </label>
              ) : null}
              <SubmissionCard
                submission={submission}
                actions={
                  showControls ? (
                    <ModerationControls
                      submissionId={submission.tweetId}
                      busy={busy.has(submission.tweetId)}
                      note={notes[submission.tweetId]}
                      onNoteChange={(note) => setNote(submission.tweetId, note)}
                      onDecide={(action) => decide(submission, action)}
                      onLeaveNote={() => triage.focusItem(submission.tweetId)}
                      extra={
                        <PreviewButton
                          feedId={feedId}
                          submissionId={submission.tweetId}
                          username={submission.username}
                          disabled={busy.has(submission.tweetId)}
                          onApprove={() => decide(submission, "approve")}
                        />
                      }
                    />
                  ) : submission.status !== "pending" ? (
                    decision ? (
                      <DecisionNote record={decision} action={retract} />
                    ) : retract ? (
                      <div className="mt-4 flex justify-end">{retract}</div>
                    ) : null
                  ) : null
                }
              />
            </div>
          );
        }}
      />
      {canModerate && isActiveBulkRun(run) && run ? (
        <BulkRunProgress run={run} />
      ) : canModerate && (selection.count > 0 || selection.allMatching) ? (
        <BulkDecisionBar
          selectedCount={selection.count}
          matchingCount={matchingCount}
          allMatching={selection.allMatching}
          busy={bulk.isPending || startRun.isPending}
          onSelectAllMatching={selection.selectAllMatching}
          onClear={selection.clear}
          onDecide={decideSelection}
        />
      ) : null}
    </div>
  );
}

/**
 * The feed's latest background bulk decision, followed while it runs (found again when the tab is opened again);
 * when one ends under the moderator's eyes, the lists refresh and one summary toast says how it went.
 */
function useBulkRun(feedId: string, canModerate: boolean): BulkRun | null {
  const { data } = useQuery({ ...latestBulkRunQueryOptions(feedId), enabled: canModerate });
  const ended = useBulkRunEnded(feedId);
  const watching = useRef<string | null>(null);
  const endedRef = useRef(ended);
  endedRef.current = ended;
  useEffect(() => {
    if (!data) return;
    if (isActiveBulkRun(data)) {
      watching.current = data.id;
    } else if (watching.current === data.id) {
      watching.current = null;
      endedRef.current(data);
    }
  }, [data]);
  return data ?? null;
}

/**
 * The posts picked for a bulk decision: a checkbox or `x` toggles one, shift-click selects the range from the
 * last one toggled, "Select all N matching" hands the choice to the server's search.
 */
function useSelection(items: readonly Submission[], selectable: (submission: Submission) => boolean) {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  // A ref, not state: a shift-click that comes before the re-render of the click before it (a busy machine, a quick
  // hand) must still find where its range starts.
  const anchor = useRef<string | null>(null);
  const [allMatching, setAllMatching] = useState(false);

  const toggle = (id: string, range: boolean) => {
    setAllMatching(false);
    const from = anchor.current === null ? -1 : items.findIndex((item) => item.tweetId === anchor.current);
    const to = items.findIndex((item) => item.tweetId === id);
    setIds((previous) => {
      const next = new Set(previous);
      if (range && from >= 0 && to >= 0) {
        const [start, end] = from < to ? [from, to] : [to, from];
        for (const item of items.slice(start, end + 1)) if (selectable(item)) next.add(item.tweetId);
      } else if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });
    anchor.current = id;
  };

  // A post decided meanwhile (here, by keyboard, or by someone else) drops out of the selection.
  const live = new Set(items.filter(selectable).map((item) => item.tweetId));
  const selected = new Set([...ids].filter((id) => live.has(id)));

  return {
    ids: selected,
    count: selected.size,
    allMatching,
    toggle,
    selectAllMatching: () => setAllMatching(true),
    clear: () => {
      setIds(new Set());
      anchor.current = null;
      setAllMatching(false);
    },
  };
}

/** A feed with nothing in it yet: say how curators submit, rather than suggesting another filter. */
function FirstSubmissionHint({ feedId }: { feedId: string }) {
  const { data: config } = useQuery(appConfigQueryOptions());
  return (
    <Card
      className="flex flex-col items-center gap-3 px-6 py-14 text-center"
      data-testid="first-submission-hint"
    >
      <span className="inline-flex size-11 items-center justify-center rounded-full bg-zinc-100 text-muted">
        <InboxIcon className="size-5" aria-hidden="true" />
      </span>
      <p className="font-medium text-ink">No submissions yet</p>
      <p className="max-w-md text-sm break-words text-muted">
        Curators submit a post to this feed by replying to it with{" "}
        <code className="rounded-sm bg-zinc-100 px-1.5 py-0.5 font-mono text-ink">
          {`!submit @${config?.botHandle ?? "…"} #${feedId}`}
        </code>
      </p>
    </Card>
  );
}
