import { useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { useState } from "react";
import { Button, type ButtonProps } from "#web/components/ui/button";

/** "Authorize App": the wallet signs the server's challenge and the server opens a session. */
export function AuthorizeButton(props: Omit<ButtonProps, "children" | "onClick">) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  return (
    <Button
      {...props}
      loading={pending}
      onClick={async () => {
        setPending(true);
        try {
          const { authorize } = await import("#web/features/auth/flows");
          await authorize(queryClient);
        } finally {
          setPending(false);
        }
      }}
    >
      <KeyRoundIcon aria-hidden="true" />
      Authorize App
    </Button>
  );
}
