import { createFileRoute } from "@tanstack/react-router";
import { appConfigQueryOptions } from "#web/features/config/api";
import { ReviewStep } from "#web/features/create-feed/components/ReviewStep";
import { SignInGate } from "#web/features/create-feed/components/SignInGate";
import { WizardProgress } from "#web/features/create-feed/components/WizardProgress";

export const Route = createFileRoute("/create/feed/review")({
  loader: ({ context: { queryClient } }) => queryClient.prefetchQuery(appConfigQueryOptions()),
  component: () => (
    <div className="flex flex-col gap-6">
      <WizardProgress step={3} />
      <SignInGate>
        <ReviewStep />
      </SignInGate>
    </div>
  ),
});
