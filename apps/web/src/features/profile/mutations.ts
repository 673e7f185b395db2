import type { CurrentUser } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authKeys } from "#web/features/auth/api";
import { uploadToServer } from "#web/features/feeds/mutations";
import { api } from "#web/lib/api";

/**
 * Sets the signed-in user's profile image from a chosen file (stored by this server, whatever the deployment uses
 * for feed images), or removes it with null.
 */
export function useProfileImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File | null) => {
      const profileImage = file ? await uploadToServer(file) : null;
      return api<CurrentUser>("/users/me", { method: "PATCH", body: { profileImage } });
    },
    onSuccess: (user) => queryClient.setQueryData(authKeys.me(), user),
  });
}
