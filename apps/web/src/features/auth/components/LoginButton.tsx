import { LogInIcon } from "lucide-react";
import { Button, type ButtonProps } from "../../../components/ui/button";

/**
 * The sign-in control of the header and of pages that need an account. Wallet sign-in arrives with the
 * auth feature; until then this is the slot it plugs into, so callers already render it where it belongs.
 */
export function LoginButton(props: Omit<ButtonProps, "children">) {
  return (
    <Button {...props}>
      <LogInIcon aria-hidden="true" />
      Login
    </Button>
  );
}
