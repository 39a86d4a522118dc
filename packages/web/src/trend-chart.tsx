// A line chart of scores (0–100) over assessments, hand-rolled in SVG: a dependency for a few
// polylines would outweigh the rest of the app. The same numbers are available as a table.
import { useState } from 'preact/hooks';

export interface Series {
  key: string;
  name: string;
  color: string;
  values: (number | null)[];
}

const W = 640;
const H = 220;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };

export function TrendChart({ labels, series, title }: { labels: string[]; series: Series[]; title: string }) {
  const [shown, setShown] = useState<Set<string>>(() => new Set(series.slice(0, 1).map((s) => s.key)));
  if (labels.length === 0) return <p class="empty">No completed assessment yet: the trend appears after the first one.</p>;
  const x = (i: number) => PAD.left + (labels.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (labels.length - 1));
  const y = (v: number) => PAD.top + ((100 - v) * (H - PAD.top - PAD.bottom)) / 100;
  const visible = series.filter((s) => shown.has(s.key));
  const toggle = (key: string) => {
    const next = new Set(shown);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setShown(next);
  };
  const tickEvery = Math.max(1, Math.ceil(labels.length / 6));
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${title}: ${visible.map((s) => `${s.name} from ${fmt(s.values[0])} to ${fmt(s.values.at(-1))}`).join('; ') || 'no series selected'}`}
      >
        {[0, 25, 50, 75, 100].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} class="grid" />
            <text x={PAD.left - 6} y={y(v) + 4} class="axis" text-anchor="end">
              {v}
            </text>
          </g>
        ))}
        {labels.map((text, i) =>
          i % tickEvery === 0 || i === labels.length - 1 ? (
            <text key={i} x={x(i)} y={H - 8} class="axis" text-anchor="middle">
              {text}
            </text>
          ) : null,
        )}
        {visible.map((s) => {
          const points = s.values.map((v, i) => (v === null ? null : `${x(i)},${y(v)}`)).filter(Boolean);
          return (
            <g key={s.key} style={{ color: s.color }}>
              <polyline points={points.join(' ')} fill="none" stroke="currentColor" stroke-width="2" />
              {s.values.map((v, i) => (v === null ? null : <circle key={i} cx={x(i)} cy={y(v)} r="3" fill="currentColor" />))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <fieldset class="legend">
          <legend>{title}: series shown</legend>
          {series.map((s) => (
            <label key={s.key} class="legend-item">
              <input type="checkbox" checked={shown.has(s.key)} onChange={() => toggle(s.key)} />
              <span class="swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.name}
            </label>
          ))}
        </fieldset>
        <details>
          <summary>Show the numbers</summary>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Assessment</th>
                  {series.map((s) => (
                    <th scope="col" key={s.key}>
                      {s.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {labels.map((text, i) => (
                  <tr key={i}>
                    <th scope="row">{text}</th>
                    {series.map((s) => (
                      <td key={s.key}>{fmt(s.values[i])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </figcaption>
    </figure>
  );
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(Math.round(v)));
