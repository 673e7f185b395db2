import {
  type PluginFormErrors,
  type PluginFormValues,
  parseSchemaDefinition,
  pluginFormErrors,
  type RegistryPlugin,
} from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { ApiError } from "#web/lib/api";
import { pluginQueryOptions } from "../api";
import { useDeletePlugin, useUpdatePlugin } from "../mutations";
import { serverFieldErrors } from "./CreatePluginPage";
import { PluginFields } from "./PluginFields";

function formValues(plugin: RegistryPlugin): PluginFormValues {
  return {
    name: plugin.name,
    repoUrl: plugin.repoUrl ?? "",
    type: plugin.type,
    entryPoint: plugin.entryPoint,
    schemaDefinition: plugin.schemaDefinition ? JSON.stringify(plugin.schemaDefinition, null, 2) : "",
  };
}

export function EditPluginPage({ pluginId }: { pluginId: string }) {
  const plugin = useQuery(pluginQueryOptions(pluginId));
  return (
    <section aria-labelledby="edit-plugin-title" className="flex flex-col gap-6">
      <title>Edit Plugin · Curate</title>
      <Link to="/plugin" className="inline-flex items-center gap-1 text-sm text-muted hover:text-ink">
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Plugins
      </Link>
      <SectionHeader as="h1" id="edit-plugin-title" title={plugin.data?.name ?? "Edit Plugin"} />
      {plugin.isPending ? (
        <Card className="flex flex-col gap-4 p-6" role="status" aria-label="Loading plugin">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-32" />
        </Card>
      ) : plugin.isError ? (
        plugin.error instanceof ApiError && plugin.error.status === 404 ? (
          <Alert>Plugin not found.</Alert>
        ) : (
          <Alert>Error loading plugin: {plugin.error.message}</Alert>
        )
      ) : (
        // Keyed by plugin only: a remount mid-save would drop the save's callbacks (toast, return to the list).
        <PluginEditor key={plugin.data.id} plugin={plugin.data} />
      )}
    </section>
  );
}

function PluginEditor({ plugin }: { plugin: RegistryPlugin }) {
  const navigate = useNavigate();
  const update = useUpdatePlugin(plugin.id);
  const remove = useDeletePlugin(plugin.id);
  const initial = formValues(plugin);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<PluginFormErrors>({});
  const [confirming, setConfirming] = useState(false);
  const changed =
    values.entryPoint !== initial.entryPoint || values.schemaDefinition !== initial.schemaDefinition;
  const readOnly = !plugin.canEdit;

  function save(event: FormEvent) {
    event.preventDefault();
    const found = pluginFormErrors(values, "edit");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const schema = parseSchemaDefinition(values.schemaDefinition);
    update.mutate(
      { entryPoint: values.entryPoint.trim(), schemaDefinition: schema.ok ? schema.value : null },
      {
        onSuccess: () => {
          toast.success("Plugin updated successfully!");
          void navigate({ to: "/plugin" });
        },
        onError: (error) => {
          setErrors(serverFieldErrors(error));
          toast.error(`Failed to update plugin: ${error.message}`);
        },
      },
    );
  }

  function confirmDelete() {
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success("Plugin deleted successfully!");
        void navigate({ to: "/plugin" });
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(`Failed to delete plugin: ${error.message}`);
      },
    });
  }

  return (
    <Card className="p-6">
      {plugin.builtin ? (
        <Alert variant="info" className="mb-6">
          This is a built-in plugin: it ships with Curate and is read-only. Its schema definition shows the
          config it accepts.
        </Alert>
      ) : readOnly ? (
        <Alert variant="info" className="mb-6">
          Only the plugin's registrant (or a super admin) can change it.
        </Alert>
      ) : null}
      {plugin.quarantine ? (
        <Alert
          variant="warning"
          className="mb-6"
          title="Hidden and not run: this registration holds what looks like a raw credential"
          data-testid="plugin-quarantine"
        >
          <p>
            Only its registrant and super admins can see this plugin, and no feed runs it until the credential
            is gone. Rotate the credential (it was stored here and may have been read) and save a{" "}
            {"{{PLACEHOLDER}}"} in its place; one in the repository URL, which cannot change, means
            registering the plugin again.
          </p>
          <ul className="mt-2 list-disc pl-5">
            {plugin.quarantine.findings.map((finding) => (
              <li key={`${finding.path}:${finding.message}`}>
                <code>{finding.path}</code>: {finding.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <form noValidate onSubmit={save} className="flex flex-col gap-6">
        <PluginFields
          values={values}
          errors={errors}
          onChange={setValues}
          identityReadOnly
          readOnly={readOnly}
        />
        {readOnly ? null : (
          <div className="flex flex-wrap justify-between gap-3">
            <Button
              type="button"
              variant="secondary"
              className="text-red-700"
              onClick={() => setConfirming(true)}
            >
              Delete Plugin
            </Button>
            <Button type="submit" disabled={!changed} loading={update.isPending}>
              Save Changes
            </Button>
          </div>
        )}
      </form>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent title="Delete Plugin" description="Are you sure you want to delete this plugin?">
          <div className="flex justify-end gap-3">
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button
              onClick={confirmDelete}
              loading={remove.isPending}
              className="bg-red-700 hover:bg-red-800"
            >
              Delete
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
