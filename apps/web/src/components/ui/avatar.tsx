import { avatarColour, initialsOf } from "#web/lib/avatar";
import { cn } from "#web/lib/cn";
import { useImageFallback } from "./use-image-fallback";

const sizes = { 24: "size-6 text-[10px]", 32: "size-8 text-xs", 40: "size-10 text-sm" } as const;

interface AvatarProps {
  name: string;
  src?: string | null;
  size?: keyof typeof sizes;
  /** People are round; feeds and other things are rounded squares. */
  shape?: "circle" | "square";
  className?: string;
}

/** Shows the image when there is one that loads, otherwise initials on a colour derived from the name. */
export function Avatar({ name, src, size = 40, shape = "circle", className }: AvatarProps) {
  const { showImage, imageProps } = useImageFallback(src);
  const frame = cn(
    "inline-flex shrink-0 items-center justify-center overflow-hidden",
    shape === "circle" ? "rounded-full" : "rounded-md",
    sizes[size],
    className,
  );

  if (showImage) {
    return (
      <img
        src={src ?? undefined}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        {...imageProps}
        className={cn(frame, "bg-zinc-100 object-cover")}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(frame, "font-semibold text-white")}
      style={{ backgroundColor: avatarColour(name) }}
    >
      {initialsOf(name)}
    </span>
  );
}
