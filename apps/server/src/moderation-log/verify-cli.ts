import { describe, VerifyError, verifyLog } from "./verify.ts";

const USAGE =
  "Usage: npm run verify-log -- <feed log address or downloaded .jsonl file> [--keys <address or file>]";

/**
 * `npm run verify-log -- <source>`: recomputes a feed's moderation log and checks its signed heads. Exits 0 when it
 * verifies, 1 when it breaks (saying at which entry), 2 when it cannot be read.
 */
async function main(args: string[]) {
  const keysAt = args.indexOf("--keys");
  const keys = keysAt >= 0 ? args[keysAt + 1] : undefined;
  const rest = args.filter((_, index) => keysAt < 0 || (index !== keysAt && index !== keysAt + 1));
  if (rest.length !== 1 || (keysAt >= 0 && !keys)) {
    console.error(USAGE);
    return 2;
  }
  try {
    const outcome = await verifyLog(rest[0], { keys });
    console.log(describe(outcome));
    return outcome.report.break ? 1 : 0;
  } catch (error) {
    if (!(error instanceof VerifyError) && !(error instanceof SyntaxError)) throw error;
    console.error(`The log cannot be checked: ${error.message}`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error("verify-log failed:", error);
    process.exit(2);
  },
);
