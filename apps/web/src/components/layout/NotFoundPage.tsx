import { Link } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { buttonClasses } from "#web/components/ui/button";
import { PageContainer } from "./PageContainer";

export function NotFoundPage() {
  return (
    <PageContainer className="flex flex-col items-center py-24 text-center">
      <title>Page not found · Curate</title>
      <p className="font-display text-7xl font-bold text-accent sm:text-8xl">404</p>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Page not found</h1>
      <p className="mt-3 max-w-md text-muted">
        The page you are looking for does not exist or has moved. Check the address, or head back to explore
        feeds.
      </p>
      <Link to="/" className={`${buttonClasses("primary", "lg")} mt-8`}>
        <ArrowLeftIcon aria-hidden="true" />
        Back to Explore
      </Link>
    </PageContainer>
  );
}
