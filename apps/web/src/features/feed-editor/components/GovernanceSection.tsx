import { QUORUM_REJECTION_LABELS, QUORUM_REJECTION_RULES, type QuorumRejectionRule } from "@curate/core";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import type { GovernanceErrors, GovernanceForm } from "#web/features/feed-editor/governance-form";
import { Checkbox, Section } from "./form-parts";

/**
 * Quorum decisions and earned trust (decision 0033): both off unless the owner sets them, so a feed decides by one
 * approver's click as before.
 */
export function GovernanceSection({
  form,
  errors = {},
  onChange,
}: {
  form: GovernanceForm;
  errors?: GovernanceErrors;
  onChange: (form: GovernanceForm) => void;
}) {
  const set = <K extends keyof GovernanceForm>(key: K, value: GovernanceForm[K]) =>
    onChange({ ...form, [key]: value });
  const number = (key: keyof GovernanceForm, label: string, hint: string, placeholder?: string) => (
    <FormField label={label} hint={hint} error={errors[key]}>
      <Input
        inputMode="numeric"
        value={form[key] as string}
        placeholder={placeholder}
        onChange={(event) => set(key, event.target.value)}
      />
    </FormField>
  );
  return (
    <Section title="Quorum and Trust">
      <p className="text-sm text-muted">
        A quorum asks several approvers to agree before a post is published. Votes in the app, in bulk and by
        reply on any network count once per person: handles linked to one Curate account are one person.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        {number(
          "quorumApprovals",
          "Approvals Needed",
          "Distinct approvers who must approve a post. Empty or 1: one approval publishes, as without a quorum.",
          "1",
        )}
        <FormField
          label="Rejection Rule"
          hint="Majority: rejected once that many votes are cast and rejections outnumber approvals."
        >
          <select
            value={form.rejection}
            onChange={(event) => set("rejection", event.target.value as QuorumRejectionRule)}
            className="h-10 w-full cursor-pointer rounded-md border border-line bg-surface px-3 text-sm text-ink shadow-xs transition-colors focus-visible:border-accent"
          >
            {QUORUM_REJECTION_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {QUORUM_REJECTION_LABELS[rule]}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <p
        className="rounded-md border border-line bg-canvas px-3 py-2 text-sm text-muted"
        data-testid="quorum-change-note"
      >
        Changing the quorum never re-decides posts already approved or rejected. Posts with some votes are
        judged by the new number at their next vote. The undo window starts when the quorum is met, and any
        approver who voted may undo.
      </p>

      <Checkbox
        label="Earned trust: a trusted curator's submission counts as one approval"
        checked={form.trustEnabled}
        onChange={(value) => set("trustEnabled", value)}
      />
      {form.trustEnabled ? (
        <div className="flex flex-col gap-4" data-testid="trust-settings">
          <p className="text-sm text-muted">
            Curators become trusted with enough approved submissions and a high enough approval rate over
            their latest decided submissions in this feed, and lose it when they fall below. Their own
            approvals and auto-approvals count only once another approver confirms them, or after the days
            below without a retraction. Promotions and demotions are recorded in the moderation log.
          </p>
          <div className="grid gap-4 md:grid-cols-2">
            {number("minApproved", "Approved Submissions Needed", "At least this many approved.")}
            {number(
              "minApprovalRate",
              "Approval Rate (%)",
              "At least this share of the decided ones approved.",
            )}
            {number(
              "lastDecided",
              "Over Their Last (decided)",
              "The rate counts this many latest decisions.",
            )}
            {number("withinDays", "Within (days)", "Only decisions this recent count. Empty: however old.")}
            {number(
              "confirmAfterDays",
              "Self-approvals Count After (days)",
              "An auto- or self-approval counts after this long unretracted.",
            )}
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <FormField
              label="Always Trusted"
              hint="Accounts or handles, comma-separated (e.g. alice.near, sam, bluesky:erin.bsky.social)"
              error={errors.pinnedTrusted}
            >
              <Input
                value={form.pinnedTrusted}
                onChange={(event) => set("pinnedTrusted", event.target.value)}
              />
            </FormField>
            <FormField label="Never Trusted" hint="Pins win over the numbers" error={errors.pinnedUntrusted}>
              <Input
                value={form.pinnedUntrusted}
                onChange={(event) => set("pinnedUntrusted", event.target.value)}
              />
            </FormField>
          </div>
          <p className="text-sm text-muted">
            Optionally, a higher bar: trusted curators over it are offered approver rights, listed under the
            approvers above. Nothing changes until you confirm. Empty: nobody is offered.
          </p>
          <div className="grid gap-4 md:grid-cols-2">
            {number(
              "offerMinApproved",
              "Offer Approver Rights After (approved)",
              "At least this many approved, over the same latest decisions.",
            )}
            {number(
              "offerMinApprovalRate",
              "Offer Approver Rights At Rate (%)",
              "At least this share of the decided ones approved.",
            )}
          </div>
        </div>
      ) : null}
    </Section>
  );
}
