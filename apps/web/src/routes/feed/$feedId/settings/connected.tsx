import { createFileRoute } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { SectionHeader } from "#web/components/ui/section-header";

export const Route = createFileRoute("/feed/$feedId/settings/connected")({
  component: ConnectedAccountsRoute,
});

function ConnectedAccountsRoute() {
  return (
    <section aria-labelledby="connected-accounts-title" className="flex flex-col gap-5">
      <SectionHeader
        id="connected-accounts-title"
        title="Connected Accounts"
        actions={
          // Connecting is not offered for feeds yet: the button is part of the screen but has no action.
          <Button variant="secondary">
            <PlusIcon aria-hidden="true" />
            Connect Account
          </Button>
        }
      />
      <ul
        aria-label="Connected accounts"
        className="min-h-24 rounded-md border border-dashed border-line bg-surface"
      />
    </section>
  );
}
