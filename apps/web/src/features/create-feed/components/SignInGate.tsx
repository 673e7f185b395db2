import { LockIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "#web/components/ui/card";
import { Skeleton } from "#web/components/ui/skeleton";
import { useCurrentUser } from "#web/features/auth/api";
import { LoginButton } from "#web/features/auth/components/LoginButton";

/** Creating a feed needs an account: signed-out visitors get the login prompt instead of the step. */
export function SignInGate({ children }: { children: ReactNode }) {
  const { data: user, status } = useCurrentUser();
  if (status === "pending") {
    return (
      <Card className="flex flex-col gap-4 p-6" aria-busy="true">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </Card>
    );
  }
  if (!user) {
    return (
      <Card className="flex flex-col items-center gap-4 px-6 py-12 text-center">
        <span className="inline-flex size-11 items-center justify-center rounded-full bg-accent-soft text-accent">
          <LockIcon className="size-5" aria-hidden="true" />
        </span>
        <p className="font-medium text-ink">Please login to create a feed</p>
        <LoginButton />
      </Card>
    );
  }
  return children;
}
