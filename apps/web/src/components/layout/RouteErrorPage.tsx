import { type ErrorComponentProps, useRouter } from "@tanstack/react-router";
import { RotateCwIcon } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { PageContainer } from "./PageContainer";

export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <PageContainer className="flex flex-col items-center py-24 text-center">
      <title>Something went wrong · Curate</title>
      <h1 className="text-2xl font-bold sm:text-3xl">Something went wrong</h1>
      <p className="mt-3 max-w-lg text-muted">{error instanceof Error ? error.message : String(error)}</p>
      <Button
        className="mt-8"
        onClick={() => {
          reset();
          void router.invalidate();
        }}
      >
        <RotateCwIcon aria-hidden="true" />
        Try again
      </Button>
    </PageContainer>
  );
}
