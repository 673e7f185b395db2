import { type Feed, type FeedConfig, feedConfigSchema } from "@curate/core";
import { useNavigate } from "@tanstack/react-router";
import { SaveIcon, Trash2Icon } from "lucide-react";
import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs";
import { Textarea } from "#web/components/ui/textarea";
import { toast } from "#web/components/ui/toast";
import {
  configFromForm,
  configToJson,
  type FeedForm,
  formFromConfig,
  parseConfigJson,
  validateForm,
  type WorkingConfig,
} from "#web/features/feed-editor/form-model";
import { FieldIssueList } from "#web/features/feeds/components/FieldIssueList";
import { ImageUpload } from "#web/features/feeds/components/ImageUpload";
import { type FieldIssue, fieldIssues, useDeleteFeed, useUpdateFeed } from "#web/features/feeds/mutations";
import { FeedConfigForm } from "./FeedConfigForm";

/** Form edits reach the working config (and the JSON) this long after the last keystroke. */
export const FORM_SYNC_DELAY_MS = 300;

type View = "form" | "json";

export const DELETE_CONFIRMATION = "Are you sure you want to delete this feed? This action cannot be undone.";

function schemaIssues(config: WorkingConfig): FieldIssue[] {
  const result = feedConfigSchema.safeParse(config);
  return result.success
    ? []
    : result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

/** The loaded edit page: image, the config in form or JSON view kept in sync, Save and Delete. */
export function FeedEditor({ feed }: { feed: Feed }) {
  const navigate = useNavigate();
  const jsonId = useId();
  const initialImage = typeof feed.config.image === "string" ? feed.config.image : (feed.image ?? "");

  const [view, setView] = useState<View>("form");
  const [config, setConfig] = useState<WorkingConfig | null>(() => ({ ...feed.config }));
  const configRef = useRef(config);
  const [form, setForm] = useState<FeedForm>(() => formFromConfig(feed.config));
  const [formGeneration, setFormGeneration] = useState(0);
  const [formEdits, setFormEdits] = useState(0);
  const [jsonText, setJsonText] = useState(() => configToJson(feed.config));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  const update = useUpdateFeed(feed.id);
  const remove = useDeleteFeed(feed.id);

  function replaceConfig(next: WorkingConfig | null) {
    configRef.current = next;
    setConfig(next);
  }

  /**
   * Writes the form into the working config and the JSON text; returns the new config. It also cancels a
   * pending debounced sync, which would otherwise overwrite JSON typed right after switching views.
   */
  function commitForm(values: FeedForm): WorkingConfig {
    setFormEdits(0);
    const next = configFromForm(configRef.current, values);
    replaceConfig(next);
    setJsonText(configToJson(next));
    setJsonError(null);
    return next;
  }

  const syncForm = useEffectEvent((values: FeedForm) => commitForm(values));
  useEffect(() => {
    if (formEdits === 0) return;
    const timer = setTimeout(() => syncForm(form), FORM_SYNC_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form, formEdits]);

  function editForm(change: (current: FeedForm) => FeedForm) {
    setForm(change);
    setFormEdits((count) => count + 1);
  }

  function switchView(next: View) {
    if (next === view) return;
    if (next === "json") {
      commitForm(form);
      setView("json");
      return;
    }
    const parsed = parseConfigJson(jsonText);
    if (!parsed.ok) {
      // Radix asks for the tab on press and again on focus; one id keeps that to one toast.
      toast.error("Invalid JSON", {
        id: "invalid-json",
        description: "Please check your JSON syntax and try again.",
      });
      return;
    }
    replaceConfig(parsed.config);
    setForm(formFromConfig(parsed.config));
    setFormGeneration((generation) => generation + 1);
    setFormEdits(0);
    setView("form");
  }

  function editJson(text: string) {
    setJsonText(text);
    const parsed = parseConfigJson(text);
    if (parsed.ok) {
      replaceConfig(parsed.config);
      setJsonError(null);
    } else {
      setJsonError(parsed.message);
    }
  }

  function changeImage(url: string, reason: "uploaded" | "removed") {
    if (view === "json" && jsonError) {
      console.error("The image URL could not be written into the JSON config: it does not parse.", jsonError);
      toast.error("Error", {
        description: "Failed to update JSON configuration. Please check the console for details.",
      });
      return;
    }
    const next = { ...(configRef.current ?? { id: feed.id }), image: url };
    replaceConfig(next);
    setJsonText(configToJson(next));
    if (reason === "uploaded") {
      toast.success("Image Updated", { description: "Image URL has been updated in the JSON config." });
    }
  }

  function save() {
    let working: WorkingConfig | null;
    if (view === "form") {
      working = commitForm(form);
    } else {
      const parsed = parseConfigJson(jsonText);
      if (!parsed.ok) {
        toast.error("Invalid JSON", { description: "Please check your JSON syntax and try again." });
        return;
      }
      working = parsed.config;
    }
    if (!working) {
      toast.error("Error", { description: "No configuration to save." });
      return;
    }
    setShowErrors(true);
    const formErrors = validateForm(formFromConfig(working));
    const found = schemaIssues(working);
    setIssues(found);
    if (Object.values(formErrors).some(Boolean) || found.length) return;
    update.mutate(working as FeedConfig, {
      onSuccess: () => {
        setIssues([]);
        toast.success("Success", { description: "Feed configuration updated successfully." });
      },
      onError: (error) => {
        setIssues(fieldIssues(error));
        toast.error("Update Failed", {
          description: error.message || "Could not update feed configuration.",
        });
      },
    });
  }

  function confirmDelete() {
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirmingDelete(false);
        toast.success("Success", { description: "Feed deleted successfully." });
        void navigate({ to: "/profile/my-feeds" });
      },
      onError: (error) => {
        setConfirmingDelete(false);
        toast.error("Deletion Failed", { description: error.message || "Could not delete feed." });
      },
    });
  }

  const errors = showErrors ? validateForm(form) : {};
  const image = typeof config?.image === "string" ? config.image : "";

  return (
    <div className="flex flex-col gap-6">
      <title>{`Edit ${feed.name || feed.id} · Curate`}</title>
      <h1 className="text-3xl font-bold break-words">Edit Feed: {feed.name || feed.id}</h1>

      <Card>
        <CardHeader>
          <CardTitle>Feed Image</CardTitle>
        </CardHeader>
        <CardContent>
          <ImageUpload name={feed.name} initialImage={initialImage} value={image} onChange={changeImage} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Configuration</CardTitle>
        </CardHeader>
        <CardContent>
          <Tabs value={view} onValueChange={(next) => switchView(next as View)}>
            <TabsList aria-label="Configuration view">
              <TabsTrigger value="form">Form View</TabsTrigger>
              <TabsTrigger value="json">JSON View</TabsTrigger>
            </TabsList>
            <TabsContent value="form">
              <FeedConfigForm form={form} errors={errors} onChange={editForm} generation={formGeneration} />
            </TabsContent>
            <TabsContent value="json" className="flex flex-col gap-2">
              <label htmlFor={jsonId} className="text-sm font-medium text-ink">
                Feed configuration (JSON)
              </label>
              <Textarea
                id={jsonId}
                value={jsonText}
                spellCheck={false}
                aria-invalid={jsonError ? true : undefined}
                aria-describedby={jsonError ? `${jsonId}-error` : undefined}
                className="min-h-[28rem] font-mono text-xs leading-relaxed"
                onChange={(event) => editJson(event.target.value)}
              />
              {jsonError ? (
                <p id={`${jsonId}-error`} role="alert" className="text-sm text-red-700">
                  JSON Error: {jsonError}
                </p>
              ) : null}
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>

      {issues.length ? (
        <Alert title="The configuration has problems:">
          <FieldIssueList issues={issues} />
        </Alert>
      ) : null}

      <div className="flex flex-wrap justify-between gap-3">
        <Button
          variant="secondary"
          className="text-red-700 hover:bg-red-50"
          onClick={() => setConfirmingDelete(true)}
        >
          <Trash2Icon aria-hidden="true" />
          Delete Feed
        </Button>
        <Button onClick={save} loading={update.isPending}>
          <SaveIcon aria-hidden="true" />
          Save Changes
        </Button>
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
