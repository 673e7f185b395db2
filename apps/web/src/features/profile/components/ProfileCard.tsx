import { UPLOAD_IMAGE_TYPES, uploadFileError } from "@curate/core";
import { ImagePlusIcon, XIcon } from "lucide-react";
import { useRef } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { toast } from "#web/components/ui/toast";
import { useCurrentUser } from "#web/features/auth/api";
import { useProfileIdentity } from "#web/features/social-profile/use-profile-identity";
import { serverMessage } from "#web/lib/api";
import { useProfileImage } from "../mutations";

/**
 * The signed-in account: its NEAR Social name, the image the user uploaded here (else the NEAR Social one) and the
 * account id; shows the account id until (or unless) a profile loads.
 */
export function ProfileCard({ accountId }: { accountId: string }) {
  const { name, imageUrl } = useProfileIdentity(accountId);
  const { data: user } = useCurrentUser();
  const ownImage = user?.nearAccountId === accountId ? user.profileImage : null;
  return (
    <section
      aria-label="Your profile"
      data-testid="profile-card"
      className="flex flex-wrap items-center gap-x-4 gap-y-3"
    >
      <Avatar
        name={name}
        src={ownImage ?? imageUrl}
        size={40}
        className="ring-2 ring-surface ring-offset-2 ring-offset-line"
      />
      {/* Room for the name first: on a phone the image controls go below it rather than squeeze it. */}
      <div className="min-w-[12rem] flex-1">
        <h1 className="truncate text-2xl font-bold sm:text-3xl">{name}</h1>
        <p className="truncate font-mono text-xs text-muted sm:text-sm" data-testid="profile-account-id">
          {accountId}
        </p>
      </div>
      {user?.nearAccountId === accountId ? <ProfileImageControls hasImage={Boolean(ownImage)} /> : null}
    </section>
  );
}

/** Choose a file and it becomes the profile image at once (checked by the server); Remove goes back to none. */
function ProfileImageControls({ hasImage }: { hasImage: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const change = useProfileImage();

  function apply(file: File | null) {
    if (file) {
      const problem = uploadFileError(file);
      if (problem) {
        toast.error("Upload Failed", { description: problem });
        return;
      }
    }
    change.mutate(file, {
      onSuccess: () => toast.success(file ? "Profile image updated" : "Profile image removed"),
      onError: (error) =>
        toast.error(file ? "Upload Failed" : "Could not remove the image", {
          description: serverMessage(error) ?? undefined,
        }),
    });
  }

  return (
    <div className="flex gap-2">
      <input
        ref={input}
        type="file"
        accept={UPLOAD_IMAGE_TYPES.join(",")}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="profile-image-file"
        onChange={(event) => {
          apply(event.target.files?.[0] ?? null);
          event.target.value = "";
        }}
      />
      <Button
        size="sm"
        variant="secondary"
        loading={change.isPending && change.variables !== null}
        onClick={() => input.current?.click()}
      >
        <ImagePlusIcon aria-hidden="true" />
        {hasImage ? "Change image" : "Add image"}
      </Button>
      {hasImage ? (
        <Button
          size="sm"
          variant="secondary"
          loading={change.isPending && change.variables === null}
          onClick={() => apply(null)}
        >
          <XIcon aria-hidden="true" />
          Remove image
        </Button>
      ) : null}
    </div>
  );
}
