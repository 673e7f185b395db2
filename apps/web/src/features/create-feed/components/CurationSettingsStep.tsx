import { WIZARD_APPROVER_PLATFORMS } from "@curate/core";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon, ArrowRightIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button, buttonClasses } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { SectionHeader } from "#web/components/ui/section-header";
import { feedDraftStore, useFeedDraft } from "#web/features/create-feed/draft-store";
import { approverError, threadIdError } from "#web/features/create-feed/validation";

/** Step 2: who approves submissions, and whether approved posts also go to a Telegram chat. */
export function CurationSettingsStep() {
  const draft = useFeedDraft();
  const navigate = useNavigate();
  const [handle, setHandle] = useState("");
  const [telegramError, setTelegramError] = useState<string>();
  const [threadError, setThreadError] = useState<string>();
  const [handleError, setHandleError] = useState<string>();
  // Switching Telegram off and on again brings back what was typed.
  const [lastTelegram, setLastTelegram] = useState(draft.telegram ?? { chatId: "", messageThreadId: "" });
  const trimmed = handle.trim().replace(/^@+/, "");

  function addApprover(event: FormEvent) {
    event.preventDefault();
    if (!trimmed) return;
    const error = approverError(trimmed, draft.approvers);
    setHandleError(error);
    if (error) return;
    feedDraftStore.update((current) => ({
      ...current,
      approvers: [...current.approvers, { handle: trimmed, platform: "Twitter" }],
    }));
    setHandle("");
  }

  function next() {
    if (draft.telegram && !draft.telegram.chatId.trim()) {
      setTelegramError("Enter the chat id or @channel the bot posts to");
      return;
    }
    const badThread = draft.telegram ? threadIdError(draft.telegram.messageThreadId) : undefined;
    if (badThread) {
      setThreadError(badThread);
      return;
    }
    void navigate({ to: "/create/feed/review" });
  }

  return (
    <div className="flex flex-col gap-6">
      <SectionHeader title="Curation Settings" />

      <Card className="flex flex-col gap-5 p-5 sm:p-6">
        <div>
          <h3 className="text-base font-semibold">Approvers</h3>
          <p className="mt-1 text-sm text-muted">
            Approvers decide which submissions the feed publishes, by replying on the platform or here.
          </p>
        </div>
        <form onSubmit={addApprover} className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
          {/* Only Twitter approvers can be added in the wizard, so the platform is shown but locked. */}
          <FormField label="Platform">
            <select
              disabled
              value={WIZARD_APPROVER_PLATFORMS[0]}
              className="h-10 w-full rounded-md border border-line bg-zinc-50 px-3 text-sm text-ink disabled:cursor-not-allowed"
            >
              {WIZARD_APPROVER_PLATFORMS.map((platform) => (
                <option key={platform} value={platform}>
                  {platform}
                </option>
              ))}
            </select>
          </FormField>
          <FormField label="Handle" prefix="@" error={handleError}>
            <Input
              value={handle}
              placeholder="username"
              autoComplete="off"
              autoCapitalize="none"
              className="pl-7"
              onChange={(event) => {
                setHandleError(undefined);
                setHandle(event.target.value);
              }}
            />
          </FormField>
          <Button type="submit" variant="secondary" disabled={!trimmed}>
            <PlusIcon aria-hidden="true" />
            Add approver
          </Button>
        </form>
        {draft.approvers.length === 0 ? (
          <p className="rounded-md border border-dashed border-line px-4 py-5 text-center text-sm text-muted">
            No approvers yet. You can add them later on the edit page.
          </p>
        ) : (
          <ul className="divide-y divide-line rounded-md border border-line" aria-label="Approvers">
            {draft.approvers.map((approver) => (
              <li key={approver.handle} className="flex items-center justify-between gap-3 px-4 py-2.5">
                <span className="min-w-0 truncate text-sm">
                  <span className="font-medium text-ink">@{approver.handle}</span>
                  <span className="ml-2 text-muted">{approver.platform}</span>
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove @${approver.handle}`}
                  onClick={() =>
                    feedDraftStore.update((current) => ({
                      ...current,
                      approvers: current.approvers.filter((a) => a.handle !== approver.handle),
                    }))
                  }
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card className="flex flex-col gap-5 p-5 sm:p-6">
        <label className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            className="mt-1 size-4 accent-accent"
            checked={draft.telegram !== null}
            onChange={(event) => {
              setTelegramError(undefined);
              setThreadError(undefined);
              if (!event.target.checked && draft.telegram) setLastTelegram(draft.telegram);
              feedDraftStore.update({
                telegram: event.target.checked ? lastTelegram : null,
              });
            }}
          />
          <span>
            <span className="block text-base font-semibold">Post approved content to Telegram</span>
            <span className="mt-1 block text-sm text-muted">
              Adds a Telegram distributor. The bot token stays on the server as {"{{TELEGRAM_BOT_TOKEN}}"}.
            </span>
          </span>
        </label>
        {draft.telegram ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Chat id or channel" error={telegramError}>
              <Input
                value={draft.telegram.chatId}
                placeholder="@mychannel or -1001234567890"
                autoComplete="off"
                onChange={(event) => {
                  setTelegramError(undefined);
                  feedDraftStore.update((current) => ({
                    ...current,
                    telegram: { messageThreadId: "", ...current.telegram, chatId: event.target.value },
                  }));
                }}
              />
            </FormField>
            <FormField
              label="Message thread id"
              hint="Optional: the topic of a forum group."
              error={threadError}
            >
              <Input
                value={draft.telegram.messageThreadId}
                inputMode="numeric"
                autoComplete="off"
                onChange={(event) => {
                  setThreadError(undefined);
                  feedDraftStore.update((current) => ({
                    ...current,
                    telegram: { chatId: "", ...current.telegram, messageThreadId: event.target.value },
                  }));
                }}
              />
            </FormField>
          </div>
        ) : null}
      </Card>

      <div className="flex justify-between gap-3">
        <Link to="/create/feed" className={buttonClasses("secondary")}>
          <ArrowLeftIcon aria-hidden="true" />
          Previous
        </Link>
        <Button onClick={next}>
          Next
          <ArrowRightIcon aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
