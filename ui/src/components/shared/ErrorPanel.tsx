import { describeError } from "../../api/errors";
import type { AppError } from "../../bindings/AppError";

type Props = { error: AppError; onRetry?: () => void; testId?: string };

/** Shows what went wrong (by error code) and what to do about it. */
export function ErrorPanel({ error, onRetry, testId }: Props) {
  const { title, detail, action } = describeError(error);
  return (
    <div className="notice notice-error" role="alert" data-testid={testId} data-error-code={error.code}>
      <strong>{title}</strong>
      <p>{detail}</p>
      <p className="muted">{action}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
