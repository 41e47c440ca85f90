/** A trial's attempt number; later attempts are marked as retries. */
export function AttemptText({ attempt }: { attempt: number }) {
  if (attempt <= 1) return <>{attempt}</>;
  return (
    <span className="retried" title={`Infrastructure failures were retried: this is attempt ${attempt}.`}>
      attempt {attempt}
    </span>
  );
}
