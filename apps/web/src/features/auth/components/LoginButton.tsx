import { LogInIcon } from "lucide-react";
import { Button, type ButtonProps } from "#web/components/ui/button";
import { authSession } from "#web/features/auth/session";
import { preloadWalletChooser } from "./WalletChooserHost";

/** "Login": opens the wallet chooser. Used in the header, the mobile menu and on pages that need an account. */
export function LoginButton({ onClick, ...props }: Omit<ButtonProps, "children">) {
  return (
    <Button
      {...props}
      aria-haspopup="dialog"
      onPointerEnter={preloadWalletChooser}
      onFocus={preloadWalletChooser}
      onClick={(event) => {
        onClick?.(event);
        authSession.openChooser();
      }}
    >
      <LogInIcon aria-hidden="true" />
      Login
    </Button>
  );
}
