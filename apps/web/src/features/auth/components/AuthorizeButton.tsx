import { useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon, LogOutIcon } from "lucide-react";
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

/**
 * Beside "Authorize App": a connected wallet that cannot or should not authorize (another account, a lost
 * wallet session) always has a way out, back to Login.
 */
export function DisconnectButton({
  onDone,
  ...props
}: Omit<ButtonProps, "children" | "onClick"> & { onDone?: () => void }) {
  const queryClient = useQueryClient();
  return (
    <Button
      variant="ghost"
      {...props}
      onClick={async () => {
        onDone?.();
        const { disconnect } = await import("#web/features/auth/flows");
        await disconnect(queryClient);
      }}
    >
      <LogOutIcon aria-hidden="true" />
      Disconnect
    </Button>
  );
}
