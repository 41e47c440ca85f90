/** Text in a monospaced block with line numbers (numbers are CSS counters, so copying skips them). */
export function CodeView({ text }: { text: string }) {
  const lines = text.replace(/\n$/, "").split("\n");
  return (
    <pre className="code">
      <code>
        {lines.map((line, i) => (
          <span key={i} className="code-line">
            {line}
            {"\n"}
          </span>
        ))}
      </code>
    </pre>
  );
}
