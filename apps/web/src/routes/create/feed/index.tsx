import { createFileRoute } from "@tanstack/react-router";
import { LockIcon } from "lucide-react";
import { Card } from "../../../components/ui/card";
import { LoginButton } from "../../../features/auth/components/LoginButton";
import { WizardProgress } from "../../../features/feeds/components/WizardProgress";

export const Route = createFileRoute("/create/feed/")({
  component: BasicInformationStep,
});

/** Step 1. Sign-in is not wired yet, so every visitor is signed out and gets the login prompt. */
function BasicInformationStep() {
  return (
    <div className="flex flex-col gap-6">
      <WizardProgress step={1} />
      <h2 className="text-xl font-bold">Basic Information</h2>
      <Card className="flex flex-col items-center gap-4 px-6 py-12 text-center">
        <span className="inline-flex size-11 items-center justify-center rounded-full bg-accent-soft text-accent">
          <LockIcon className="size-5" aria-hidden="true" />
        </span>
        <p className="font-medium text-ink">Please login to create a feed</p>
        <LoginButton />
      </Card>
    </div>
  );
}
