import type { Feed } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { useBlocker, useNavigate } from "@tanstack/react-router";
import { SaveIcon, Trash2Icon } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs";
import { Textarea } from "#web/components/ui/textarea";
import { toast } from "#web/components/ui/toast";
import { ConfigTestBench } from "#web/features/dry-runs/components/ConfigTestBench";
import type { EditorView } from "#web/features/feed-editor/editor-state";
import { useFeedEditor } from "#web/features/feed-editor/use-feed-editor";
import { feedSecretsQueryOptions } from "#web/features/feed-secrets/api";
import { FeedSecretsSection } from "#web/features/feed-secrets/components/FeedSecretsSection";
import { FieldIssueList } from "#web/features/feeds/components/FieldIssueList";
import { ImageUpload } from "#web/features/feeds/components/ImageUpload";
import { PlaceholderWarnings } from "#web/features/feeds/components/PlaceholderWarnings";
import { useDeleteFeed } from "#web/features/feeds/mutations";
import { ApproverOffers } from "#web/features/governance/components/ApproverOffers";
import { PausedChannelsAlert } from "#web/features/processing/components/PausedChannelsAlert";
import { ConfigHistory } from "./ConfigHistory";
import { FeedConfigForm } from "./FeedConfigForm";

const LEAVE_CONFIRMATION = "You have unsaved changes to this feed. Leave without saving them?";

export const DELETE_CONFIRMATION = "Are you sure you want to delete this feed? This action cannot be undone.";

/** The loaded edit page: image, the config in form or JSON view kept in sync, Save and Delete. */
export function FeedEditor({ feed, onRestored }: { feed: Feed; onRestored?: (feed: Feed) => void }) {
  const navigate = useNavigate();
  const jsonId = useId();
  const initialImage = typeof feed.config.image === "string" ? feed.config.image : (feed.image ?? "");
  const editor = useFeedEditor(feed);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const remove = useDeleteFeed(feed.id);
  const { data: secrets } = useQuery(feedSecretsQueryOptions(feed.id));
  const secretNames = secrets?.map((secret) => secret.name);
  const [leaving, setLeaving] = useState(false);

  // Leaving with unsaved edits asks first: in the app, and when closing or reloading the tab.
  useBlocker({
    shouldBlockFn: () => editor.dirty && !leaving && !window.confirm(LEAVE_CONFIRMATION),
    enableBeforeUnload: () => editor.dirty && !leaving,
  });

  function confirmDelete() {
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirmingDelete(false);
        setLeaving(true);
        toast.success("Success", { description: "Feed deleted successfully." });
        void navigate({ to: "/profile/my-feeds" });
      },
      onError: (error) => {
        setConfirmingDelete(false);
        toast.error("Deletion Failed", { description: error.message || "Could not delete feed." });
      },
    });
  }

  return (
    <div className="flex flex-col gap-6">
      <title>{`Edit ${feed.name || feed.id} · Curate`}</title>
      <h1 className="text-3xl font-bold break-words">Edit Feed: {feed.name || feed.id}</h1>
      <PausedChannelsAlert feedId={feed.id} />

      <Card>
        <CardHeader>
          <CardTitle>Feed Image</CardTitle>
        </CardHeader>
        <CardContent>
          <ImageUpload
            name={feed.name}
            initialImage={initialImage}
            value={editor.image}
            onChange={editor.changeImage}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Configuration</CardTitle>
        </CardHeader>
        <CardContent>
          <Tabs value={editor.view} onValueChange={(next) => editor.switchView(next as EditorView)}>
            <TabsList aria-label="Configuration view">
              <TabsTrigger value="form">Form View</TabsTrigger>
              <TabsTrigger value="json">JSON View</TabsTrigger>
            </TabsList>
            <TabsContent value="form">
              <FeedConfigForm
                feedId={feed.id}
                form={editor.form}
                errors={editor.errors}
                onChange={editor.editForm}
                generation={editor.formGeneration}
                issues={editor.issues}
                approverOffers={
                  <ApproverOffers
                    feedId={feed.id}
                    dirty={editor.dirty}
                    onConfirmed={(saved) => {
                      // The confirmation saved the config: the page starts again from it, as after a restore.
                      setLeaving(true);
                      onRestored?.(saved);
                    }}
                  />
                }
              />
            </TabsContent>
            <TabsContent value="json" className="flex flex-col gap-2">
              <label htmlFor={jsonId} className="text-sm font-medium text-ink">
                Feed configuration (JSON)
              </label>
              <Textarea
                id={jsonId}
                value={editor.jsonText}
                spellCheck={false}
                aria-invalid={editor.jsonError ? true : undefined}
                aria-describedby={editor.jsonError ? `${jsonId}-error` : undefined}
                className="min-h-[28rem] font-mono text-xs leading-relaxed"
                onChange={(event) => editor.editJson(event.target.value)}
              />
              {editor.jsonError ? (
                <p id={`${jsonId}-error`} role="alert" className="text-sm text-red-700">
                  JSON Error: {editor.jsonError}
                </p>
              ) : null}
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>

      <FeedSecretsSection feedId={feed.id} />

      <PlaceholderWarnings
        feedSecretNames={secretNames}
        config={editor.config}
        onRemoveStep={(placeholder) => editor.removeStep(placeholder.stepPath)}
        removeBlockedReason={
          editor.canRemoveStep ? undefined : "Fix the JSON first: the step is removed from it."
        }
      />

      <ConfigTestBench feedId={feed.id} workingConfig={editor.workingConfig} />
      <ConfigHistory
        feedId={feed.id}
        dirty={editor.dirty}
        onRestored={(restored) => {
          // The page starts again from the restored config: nothing unsaved is left to ask about.
          setLeaving(true);
          onRestored?.(restored);
        }}
      />

      {editor.issues.length ? (
        <Alert title="The configuration has problems:">
          <FieldIssueList issues={editor.issues} />
        </Alert>
      ) : null}

      {/* The form is long: Save and Delete stay in reach at the bottom of the window while scrolling. */}
      <div
        className="sticky bottom-0 z-20 -mx-4 flex flex-wrap items-center justify-between gap-3 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-md sm:border"
        data-testid="editor-actions"
      >
        <Button
          variant="secondary"
          className="text-red-700 hover:bg-red-50"
          onClick={() => setConfirmingDelete(true)}
        >
          <Trash2Icon aria-hidden="true" />
          Delete Feed
        </Button>
        <div className="flex items-center gap-3">
          {editor.dirty ? (
            <span className="text-sm font-medium text-amber-800" role="status" data-testid="unsaved-marker">
              Unsaved changes
            </span>
          ) : null}
          <Button onClick={editor.save} loading={editor.saving} data-keeps-drafts="">
            <SaveIcon aria-hidden="true" />
            Save Changes
          </Button>
        </div>
      </div>

      <Dialog open={confirmingDelete} onOpenChange={setConfirmingDelete}>
        <DialogContent title="Delete Feed" description={DELETE_CONFIRMATION}>
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button
              className="bg-red-700 hover:bg-red-800"
              onClick={confirmDelete}
              loading={remove.isPending}
            >
              Delete
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}
