import { createFileRoute } from "@tanstack/react-router";
import { BasicInformationStep } from "#web/features/create-feed/components/BasicInformationStep";
import { SignInGate } from "#web/features/create-feed/components/SignInGate";
import { WizardProgress } from "#web/features/create-feed/components/WizardProgress";
import { usePrefillDraft } from "#web/features/create-feed/prefill";
import { prefillSearchSchema } from "#web/features/create-feed/prefill-search";

export const Route = createFileRoute("/create/feed/")({
  validateSearch: prefillSearchSchema,
  component: BasicInformationRoute,
});

function BasicInformationRoute() {
  const search = Route.useSearch();
  const prefilled = usePrefillDraft(search);
  return (
    <div className="flex flex-col gap-6">
      <WizardProgress step={1} />
      <SignInGate>{prefilled ? <BasicInformationStep /> : null}</SignInGate>
    </div>
  );
}
