import type { ListSearch, Submission } from "@curate/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { SectionHeader } from "#web/components/ui/section-header";
import { useCanModerate } from "#web/features/moderation/api";
import { DecisionNote, latestDecision } from "#web/features/moderation/components/DecisionNote";
import { ModerationControls, noteInputId } from "#web/features/moderation/components/ModerationControls";
import { ShortcutHint } from "#web/features/moderation/components/ShortcutHint";
import { type TriageDecision, useTriage } from "#web/features/moderation/hooks/use-triage";
import {
  type ModerateVariables,
  type ModerationAction,
  useModerateSubmission,
} from "#web/features/moderation/mutations";
import {
  type SubmissionFilters as Filters,
  feedSubmissionsInfiniteQueryOptions,
  toSubmissionFilters,
} from "#web/features/submissions/api";
import { SubmissionCard } from "#web/features/submissions/components/SubmissionCard";
import { SubmissionFilters } from "#web/features/submissions/components/SubmissionFilters";
import { SubmissionList } from "#web/features/submissions/components/SubmissionList";
import { formatCount } from "#web/lib/format";

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
  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);
  // Open note fields and their drafts, by submission; a draft survives a failed decision.
  const [notes, setNotes] = useState<Record<string, string | undefined>>({});
  const [announcement, setAnnouncement] = useState("");

  const setNote = useCallback((submissionId: string, note: string | undefined) => {
    setNotes((previous) => ({ ...previous, [submissionId]: note }));
  }, []);

  const author = (submissionId: string) => {
    const username = items.find((item) => item.tweetId === submissionId)?.username;
    return username ? `post by @${username}` : "post";
  };

  const { moderate, inFlight: busy } = useModerateSubmission(feedId, {
    onDecided: ({ submissionId }) => setNote(submissionId, undefined),
    onFailed: ({ submissionId, action }: ModerateVariables) =>
      setAnnouncement(`Could not ${ACTION_WORDS[action].verb} ${author(submissionId)}; it is pending again.`),
  });

  const decide = (submission: Submission, action: ModerationAction) => {
    if (busy.has(submission.tweetId)) return;
    if (!moderate({ submissionId: submission.tweetId, action, note: notes[submission.tweetId] })) return;
    setAnnouncement(`${ACTION_WORDS[action].past} post by @${submission.username}.`);
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
        renderSummary={(total) => (
          <p className="text-sm text-muted" data-testid="submission-total">
            {formatCount(total)} {total === 1 ? "submission" : "submissions"}
          </p>
        )}
        renderItem={(submission, index) => {
          const decision = latestDecision(submission.moderationHistory, feedId);
          const showControls = canModerate && submission.status === "pending";
          return (
            <div
              {...triage.itemProps(submission, index)}
              role="group"
              aria-label={`Post ${index + 1} by @${submission.username}, ${submission.status}`}
              // The item being worked on keeps an accent edge while focus is on its buttons or note.
              className="scroll-mt-24 scroll-mb-6 rounded-md focus-visible:outline-offset-4 data-current:[&:focus-within>div]:border-accent"
            >
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
                    />
                  ) : decision && submission.status !== "pending" ? (
                    <DecisionNote record={decision} />
                  ) : null
                }
              />
            </div>
          );
        }}
      />
    </div>
  );
}
