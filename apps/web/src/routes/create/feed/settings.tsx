import { createFileRoute } from "@tanstack/react-router";
import { CurationSettingsStep } from "#web/features/create-feed/components/CurationSettingsStep";
import { SignInGate } from "#web/features/create-feed/components/SignInGate";
import { WizardProgress } from "#web/features/create-feed/components/WizardProgress";

export const Route = createFileRoute("/create/feed/settings")({
  component: () => (
    <div className="flex flex-col gap-6">
      <WizardProgress step={2} />
      <SignInGate>
        <CurationSettingsStep />
      </SignInGate>
    </div>
  ),
});
