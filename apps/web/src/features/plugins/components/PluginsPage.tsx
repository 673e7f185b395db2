import { PLUGIN_TYPES, type PluginType } from "@curate/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge } from "#web/components/ui/badge";
import { Button, buttonClasses } from "#web/components/ui/button";
import { SectionHeader } from "#web/components/ui/section-header";
import { Select } from "#web/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { toast } from "#web/components/ui/toast";
import { useAuthState } from "#web/features/auth/use-auth";
import { pluginNoticesQueryOptions, pluginsQueryOptions } from "../api";
import { useDismissPluginNotice } from "../mutations";

const TYPE_OPTIONS = [
  { value: "", label: "All types" },
  ...PLUGIN_TYPES.map((type) => ({ value: type, label: type[0].toUpperCase() + type.slice(1) })),
] as const;

/** The registry: every plugin feed configs may name, built-ins first. */
export function PluginsPage() {
  const [type, setType] = useState<PluginType | "">("");
  const [page, setPage] = useState(0);
  const plugins = useQuery({
    ...pluginsQueryOptions({ type: type || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const items = plugins.data?.items ?? [];
  return (
    <section aria-labelledby="plugins-title" className="flex flex-col gap-6">
      <title>Plugins · Curate</title>
      <SectionHeader
        as="h1"
        id="plugins-title"
        title="Plugins"
        description="Transformers and distributors a feed's pipeline can use."
        actions={
          <Link to="/create/plugin" className={buttonClasses("primary")}>
            <PlusIcon aria-hidden="true" />
            Create New Plugin
          </Link>
        }
      />
      <PluginNotices />
      <Select
        label="Type"
        className="w-48"
        value={type}
        options={TYPE_OPTIONS}
        onValueChange={(value) => {
          setType(value as PluginType | "");
          setPage(0);
        }}
      />
      {plugins.isError ? (
        <Alert>Failed to load plugins: {plugins.error.message}</Alert>
      ) : (
        <Table aria-label="Plugins">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Repository</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {plugins.isPending ? (
              <TableRow>
                <TableCell colSpan={4} className="py-8 text-center text-muted" role="status">
                  Loading plugins...
                </TableCell>
              </TableRow>
            ) : items.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4} className="py-8 text-center text-muted">
                  No plugins found.
                </TableCell>
              </TableRow>
            ) : (
              items.map((plugin) => (
                <TableRow key={plugin.id}>
                  <TableCell className="font-medium">
                    <span className="inline-flex items-center gap-2">
                      {plugin.name}
                      {plugin.builtin ? <Badge tone="accent">Built-in</Badge> : null}
                      {plugin.quarantine ? <Badge tone="amber">Hidden: holds a credential</Badge> : null}
                    </span>
                  </TableCell>
                  <TableCell className="capitalize">{plugin.type}</TableCell>
                  <TableCell className="max-w-72 truncate">
                    {plugin.repoUrl ? (
                      <a
                        href={plugin.repoUrl}
                        target="_blank"
                        rel="noreferrer noopener"
                        className="text-accent hover:underline"
                      >
                        {plugin.repoUrl}
                      </a>
                    ) : (
                      // A built-in on a deployment that names no SOURCE_REPOSITORY_URL: no link beats a wrong one.
                      <span className="text-muted">Not published</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right">
                    <Link
                      to="/plugin/$pluginId"
                      params={{ pluginId: plugin.id }}
                      className={buttonClasses("secondary", "sm")}
                      aria-label={`${plugin.canEdit ? "Edit" : "View"} ${plugin.name}`}
                    >
                      {plugin.canEdit ? "Edit" : "View"}
                    </Link>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      )}
      {plugins.data && (plugins.data.pagination.page > 0 || plugins.data.pagination.hasNextPage) ? (
        <nav aria-label="Plugin pages" className="flex items-center justify-between gap-4 text-sm text-muted">
          <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page + 1} of{" "}
            {Math.max(1, Math.ceil(plugins.data.pagination.totalCount / plugins.data.pagination.limit))}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={!plugins.data.pagination.hasNextPage}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}

/** What the server changed in the signed-in user's plugins or feeds (decision 0022's renames), until dismissed. */
function PluginNotices() {
  const auth = useAuthState();
  const notices = useQuery({ ...pluginNoticesQueryOptions(), enabled: auth.status === "authorized" });
  const dismiss = useDismissPluginNotice();
  const items = auth.status === "authorized" ? (notices.data?.items ?? []) : [];
  if (items.length === 0) return null;
  return (
    <ul aria-label="Notices" className="flex flex-col gap-3">
      {items.map((notice) => (
        <li key={notice.id}>
          <Alert variant="warning" title="Plugin renamed" className="flex flex-col gap-2">
            <p>{notice.message}</p>
            <div className="mt-3">
              <Button
                variant="secondary"
                size="sm"
                loading={dismiss.isPending && dismiss.variables === notice.id}
                onClick={() =>
                  dismiss.mutate(notice.id, {
                    onError: (error) => toast.error(`Failed to dismiss the notice: ${error.message}`),
                  })
                }
              >
                Dismiss
              </Button>
            </div>
          </Alert>
        </li>
      ))}
    </ul>
  );
}
