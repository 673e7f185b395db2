import type { LinkCode } from "@curate/core";
import { useMutation } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** A new one-time code replaces the previous one; the handle it links shows once the bot has read the post. */
export function useCreateLinkCode() {
  return useMutation({
    mutationFn: () => api<LinkCode>("/users/me/link-codes", { method: "POST" }),
  });
}
