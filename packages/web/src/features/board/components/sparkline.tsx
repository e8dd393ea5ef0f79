interface SparklineProps {
  values: readonly (number | null)[];
  /** Read by screen readers: what the line shows and its range. */
  label: string;
  className?: string;
}

/** The last hour as a small line (gaps where nothing was recorded); decorative beside its label. */
export function Sparkline({ values, label, className = 'h-8 w-full' }: SparklineProps) {
  const known = values.filter((v): v is number => v !== null);
  const min = Math.min(...known);
  const max = Math.max(...known);
  const span = max - min || 1;
  const step = 100 / Math.max(values.length - 1, 1);
  const segments: string[] = [];
  let current = '';
  values.forEach((v, i) => {
    if (v === null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    const x = i * step;
    const y = (28 - ((v - min) / span) * 24).toFixed(1);
    // A lone bucket is drawn as a short dash, so a single reading still shows.
    current += current ? ` L${x.toFixed(1)},${y}` : `M${x.toFixed(1)},${y} L${(x + 1).toFixed(1)},${y}`;
  });
  if (current) segments.push(current);
  return (
    <svg viewBox="0 0 100 30" preserveAspectRatio="none" className={className} role="img" aria-label={label}>
      {segments.map((d) => (
        <path
          key={d}
          d={d}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {known.length === 0 && (
        <line
          x1="0"
          y1="15"
          x2="100"
          y2="15"
          stroke="currentColor"
          strokeDasharray="2 3"
          strokeOpacity="0.4"
        />
      )}
    </svg>
  );
}

/** "Heart rate over the last hour: 62 to 88" or "no readings in the last hour". */
export function sparkLabel(name: string, values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return `${name}: no readings in the last hour`;
  return `${name} over the last hour: ${Math.round(Math.min(...known))} to ${Math.round(Math.max(...known))}`;
}
