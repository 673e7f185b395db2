import type { AppConfig, Feed, FeedConfig, FeedSaveAnswer, UploadAnswer } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { appConfigQueryOptions } from "#web/features/config/api";
import { scheduleKeys } from "#web/features/schedule/api";
import { ApiError, api, apiUrl, serverMessage } from "#web/lib/api";
import { feedKeys, feedPath } from "./api";

// Writes live apart from the read queries in ./api, which Explore loads on the first page.

/**
 * Feeds appear in lists, details and the profile's feed lists; every write refreshes all of them. The profile
 * keys its lists under feedKeys.all for exactly this, so this module needs no import from the profile.
 */
function useInvalidateFeeds() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: feedKeys.all });
}

export function useCreateFeed() {
  const invalidate = useInvalidateFeeds();
  return useMutation({
    mutationFn: (config: FeedConfig) => api<Feed>("/feeds", { method: "POST", body: config }),
    onSuccess: invalidate,
  });
}

export function useUpdateFeed(feedId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFeeds();
  return useMutation({
    // `version` is the updatedAt the editor loaded: a feed changed since then is a 409, not overwritten.
    mutationFn: ({ config, version }: { config: FeedConfig; version?: string }) =>
      api<FeedSaveAnswer>(feedPath(feedId), {
        method: "PUT",
        body: config,
        headers: version ? { "If-Match": `"${version}"` } : undefined,
      }),
    onSuccess: ({ scheduleReplanned, ...feed }) => {
      queryClient.setQueryData(feedKeys.detail(feedId), feed);
      // A changed channel schedule re-planned what waits on it (decision 0036).
      if (scheduleReplanned > 0) void queryClient.invalidateQueries({ queryKey: scheduleKeys.feed(feedId) });
      return invalidate();
    },
  });
}

/** Saves an earlier version again (a new version, "restored from"); the editor then starts from it. */
export function useRestoreFeedVersion(feedId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFeeds();
  return useMutation({
    mutationFn: (version: number) =>
      api<FeedSaveAnswer>(`${feedPath(feedId)}/versions/${version}/restore`, { method: "POST" }),
    onSuccess: ({ scheduleReplanned, ...feed }) => {
      queryClient.setQueryData(feedKeys.detail(feedId), feed);
      // A restore is a save: a channel schedule it changes re-planned what waits on it, as for an edit.
      if (scheduleReplanned > 0) void queryClient.invalidateQueries({ queryKey: scheduleKeys.feed(feedId) });
      return invalidate();
    },
  });
}

export function useDeleteFeed(feedId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFeeds();
  return useMutation({
    mutationFn: () => api<{ id: string; deleted: true }>(feedPath(feedId), { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: feedKeys.detail(feedId) });
      return invalidate();
    },
  });
}

export interface FieldIssue {
  path: string;
  message: string;
}

/** The field issues of a 400 VALIDATION_ERROR (`error.details`), or none. */
export function fieldIssues(error: unknown): FieldIssue[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const details = (error.body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail) =>
    detail && typeof detail === "object" && typeof (detail as FieldIssue).message === "string"
      ? [{ path: String((detail as FieldIssue).path ?? ""), message: (detail as FieldIssue).message }]
      : [],
  );
}

export const DEFAULT_PINATA_UPLOAD_URL = "https://uploads.pinata.cloud/v3/files";

/**
 * Embedded default: the server checks the image's bytes, stores it and answers its path under /uploads (the only
 * way to a profile image, which must never be a third party's address).
 */
export async function uploadToServer(file: File): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  const response = await fetch(apiUrl("/upload"), { method: "POST", body: form, credentials: "same-origin" });
  const payload = (await response.json().catch(() => null)) as {
    success?: boolean;
    data?: { url?: string };
    error?: { message?: string };
  } | null;
  if (!response.ok || !payload?.success || !payload.data?.url) {
    throw new ApiError(response.status, payload?.error?.message || response.statusText, payload);
  }
  return payload.data.url;
}

async function pinataKey(): Promise<string> {
  const response = await fetch(apiUrl("/upload/get-auth-key"), { credentials: "same-origin" });
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    throw new Error(
      `Failed to retrieve Pinata auth key: ${response.status} ${response.statusText} - ${body}`,
    );
  }
  const payload = (await response.json().catch(() => null)) as { data?: { JWT?: string } } | null;
  const jwt = payload?.data?.JWT;
  if (!jwt) throw new Error("No JWT returned from Pinata auth key service");
  return jwt;
}

/**
 * With PINATA_JWT on the server, the browser sends the file straight to Pinata with a short-lived key; the server
 * then reads the pinned file back and checks its bytes, and only its answer's address is used (a file that is no
 * image is unpinned and refused).
 */
async function uploadToPinata(file: File, pinata: AppConfig["pinata"]): Promise<string> {
  const jwt = await pinataKey();
  try {
    const form = new FormData();
    form.append("file", file);
    const response = await fetch(pinata?.uploadUrl ?? DEFAULT_PINATA_UPLOAD_URL, {
      method: "POST",
      headers: { Authorization: `Bearer ${jwt}` },
      body: form,
    });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    // The v3 files API answers data.cid; the older pinning API answers IpfsHash.
    const payload = (await response.json()) as { data?: { cid?: string }; IpfsHash?: string };
    const cid = payload.data?.cid ?? payload.IpfsHash;
    if (!cid) throw new Error("the answer holds no content hash");
    const accepted = await api<UploadAnswer>("/upload/pinned", { method: "POST", body: { cid } });
    return accepted.url;
  } catch (error) {
    throw new Error(`Pinata upload process failed: ${serverMessage(error) ?? "Unknown error"}`);
  }
}

/** Uploads an image the way this deployment is set up to, and returns the URL it is shown from. */
export function uploadImage(file: File, config: Pick<AppConfig, "imageUpload" | "pinata">): Promise<string> {
  return config.imageUpload === "pinata" ? uploadToPinata(file, config.pinata) : uploadToServer(file);
}

interface UploadCallbacks {
  onSuccess: (url: string) => void;
  onError: (error: Error) => void;
}

/** Uploads a chosen image with this deployment's settings; the callbacks run even if the form has gone. */
export function useUploadImage({ onSuccess, onError }: UploadCallbacks) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) =>
      uploadImage(file, await queryClient.fetchQuery(appConfigQueryOptions())),
    onSuccess,
    onError,
  });
}
