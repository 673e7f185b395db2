import {
  type PluginFormErrors,
  type PluginFormValues,
  parseSchemaDefinition,
  pluginFormErrors,
} from "@curate/core";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";
import { toast } from "#web/components/ui/toast";
import { useAuthState } from "#web/features/auth/use-auth";
import { fieldIssues } from "#web/features/feeds/mutations";
import { useCreatePlugin } from "../mutations";
import { PluginFields } from "./PluginFields";

const EMPTY: PluginFormValues = { name: "", repoUrl: "", type: "", entryPoint: "", schemaDefinition: "" };

/** Server field issues (`details`) onto the form's fields. */
export function serverFieldErrors(error: unknown): PluginFormErrors {
  const errors: PluginFormErrors = {};
  for (const issue of fieldIssues(error)) {
    const field = issue.path.split(".")[0] as keyof PluginFormValues;
    if (field in EMPTY && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export function CreatePluginPage() {
  const navigate = useNavigate();
  const auth = useAuthState();
  const create = useCreatePlugin();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<PluginFormErrors>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = pluginFormErrors(values, "create");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const schema = parseSchemaDefinition(values.schemaDefinition);
    create.mutate(
      {
        name: values.name.trim(),
        repoUrl: values.repoUrl.trim(),
        type: values.type,
        entryPoint: values.entryPoint.trim(),
        schemaDefinition: schema.ok ? schema.value : null,
      },
      {
        onSuccess: (plugin) => {
          toast.success(`Plugin "${plugin.name}" created successfully!`);
          void navigate({ to: "/plugin" });
        },
        onError: (error) => {
          setErrors(serverFieldErrors(error));
          toast.error(`Failed to create plugin: ${error.message}`);
        },
      },
    );
  }

  return (
    <section aria-labelledby="create-plugin-title" className="flex flex-col gap-6">
      <title>Create Plugin · Curate</title>
      <SectionHeader
        as="h1"
        id="create-plugin-title"
        title="Create Plugin"
        description="Register a transformer or distributor so feed configs can name it."
      />
      {auth.status !== "authorized" ? (
        <Alert variant="info">Sign in and authorize the app to register a plugin.</Alert>
      ) : null}
      <Card className="p-6">
        <form noValidate onSubmit={submit} className="flex flex-col gap-6">
          <PluginFields values={values} errors={errors} onChange={setValues} identityReadOnly={false} />
          <div className="flex justify-end">
            <Button type="submit" loading={create.isPending}>
              Create Plugin
            </Button>
          </div>
        </form>
      </Card>
    </section>
  );
}
