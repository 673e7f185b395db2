import { UPLOAD_HINT, UPLOAD_IMAGE_TYPES, uploadFileError } from "@curate/core";
import { ImageIcon, UploadIcon, XIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { toast } from "#web/components/ui/toast";
import { useUploadImage } from "#web/features/feeds/mutations";

interface ImageUploadProps {
  /** The image the feed had when the page opened; Remove goes back to it. */
  initialImage: string;
  /** The image shown now. */
  value: string;
  /** `uploaded` for a new hosted image, `removed` when going back to the initial one. */
  onChange: (url: string, reason: "uploaded" | "removed") => void;
  name: string;
}

/** Choose a file, Upload, and the hosted URL becomes the feed's image. */
export function ImageUpload({ initialImage, value, onChange, name }: ImageUploadProps) {
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  // The URL whose image failed to load: the frame then shows the placeholder, not the alt text spilling out.
  const [broken, setBroken] = useState<string | null>(null);

  const upload = useUploadImage({
    onSuccess: (url) => {
      toast.success("Upload Successful", { description: "Image has been uploaded." });
      clearChoice();
      onChange(url, "uploaded");
    },
    onError: (error) => toast.error("Upload Failed", { description: error.message }),
  });

  function choose(next: File | null) {
    if (preview) URL.revokeObjectURL(preview);
    setFile(next);
    setPreview(next ? URL.createObjectURL(next) : null);
  }

  function clearChoice() {
    choose(null);
    if (inputRef.current) inputRef.current.value = "";
  }

  function startUpload() {
    if (!file) {
      toast.error("No file selected", { description: "Please select an image file to upload." });
      return;
    }
    // Checked here for every upload path: the Pinata path never passes through our server's checks.
    const problem = uploadFileError(file);
    if (problem) {
      toast.error("Upload Failed", { description: problem });
      return;
    }
    upload.mutate(file);
  }

  const shown = preview ?? value;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <div className="flex size-28 shrink-0 items-center justify-center overflow-hidden rounded-md border border-line bg-zinc-50">
        {shown && broken !== shown ? (
          <img
            src={shown}
            alt={name ? `${name} feed` : "The feed"}
            className="size-full object-cover"
            onError={() => setBroken(shown)}
            data-testid="image-preview"
          />
        ) : (
          <ImageIcon className="size-8 text-muted" aria-hidden="true" />
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium text-ink">
            Image file
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept={UPLOAD_IMAGE_TYPES.join(",")}
            aria-describedby={hintId}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
            className="block w-full text-sm text-muted file:mr-3 file:h-9 file:cursor-pointer file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-sm file:font-medium file:text-ink hover:file:bg-zinc-50"
          />
          <p id={hintId} className="text-xs text-muted">
            {UPLOAD_HINT}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={startUpload} loading={upload.isPending}>
            <UploadIcon aria-hidden="true" />
            {upload.isPending ? "Uploading..." : "Upload"}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={upload.isPending || (!file && value === initialImage)}
            onClick={() => {
              clearChoice();
              onChange(initialImage, "removed");
            }}
          >
            <XIcon aria-hidden="true" />
            Remove
          </Button>
        </div>
        {value ? (
          <p className="truncate text-xs text-muted" title={value}>
            <span className="font-medium text-ink">Image URL:</span> {value}
          </p>
        ) : null}
      </div>
    </div>
  );
}
