import { LOGO_MARK } from '../../shared/logo-mark.ts';

/** Signpost's mark, beside the site's title while no logo is uploaded; its colours come from the stylesheet. */
export function LogoMark({ className = 'logo-mark' }: { className?: string }) {
  const { viewBox, tile, glyph } = LOGO_MARK;
  return (
    <svg className={className} viewBox={viewBox} aria-hidden="true" focusable="false">
      <rect className="logo-mark-tile" width={tile.width} height={tile.height} rx={tile.rx} />
      <g className="logo-mark-glyph">
        {glyph.map((d) => (
          <path key={d} d={d} />
        ))}
      </g>
    </svg>
  );
}
