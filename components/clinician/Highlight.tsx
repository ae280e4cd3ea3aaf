/** `text` with every case-insensitive occurrence of `q` marked, so a search result shows why it matched. */
export function Highlight({ text, q }: { text: string; q?: string }) {
  const needle = q?.trim().toLowerCase();
  if (!needle || needle.length < 2) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  const lower = text.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} className="rounded-sm bg-yellow-200 px-0.5 text-slate-900">
        {text.slice(at, at + needle.length)}
      </mark>,
    );
    from = at + needle.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return <>{parts}</>;
}
