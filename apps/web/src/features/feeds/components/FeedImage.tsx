import { useImageFallback } from "#web/components/ui/use-image-fallback";
import { avatarColour, initialsOf } from "#web/lib/avatar";
import { cn } from "#web/lib/cn";

/** A feed's square image, or its initials on a colour from its name when it has none or it fails to load. */
export function FeedImage({
  name,
  src,
  className,
}: {
  name: string;
  src: string | null;
  className?: string;
}) {
  const { showImage, imageProps } = useImageFallback(src);
  const frame = cn("inline-flex shrink-0 items-center justify-center overflow-hidden rounded-md", className);
  if (src && showImage) {
    return <img src={src} alt="" className={cn(frame, "bg-zinc-100 object-cover")} {...imageProps} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cn(frame, "font-display text-2xl font-bold text-white")}
      style={{ backgroundColor: avatarColour(name) }}
    >
      {initialsOf(name)}
    </span>
  );
}
