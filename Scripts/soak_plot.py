"""soak.svg: the server's RSS, open descriptors and CPU over the soak, one
panel each, drawn as plain SVG (no plotting library on a fresh machine)."""

PANELS = [("RSS (MiB)", 1, "#1f77b4"), ("open descriptors", 2, "#2ca02c"), ("CPU (% of a core)", 4, "#d62728")]


def write_svg(rows, path, width=720, panel_height=160):
    margin_left, margin_top, gap = 70, 20, 40
    height = margin_top + len(PANELS) * (panel_height + gap)
    end = max((row[0] for row in rows), default=1) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    plot_width = width - margin_left - 20
    for index, (title, column, colour) in enumerate(PANELS):
        top = margin_top + index * (panel_height + gap)
        values = [row[column] for row in rows]
        high = max(values, default=1) * 1.1 or 1
        parts.append(f'<text x="{margin_left}" y="{top - 5}" font-weight="bold">{title}</text>')
        parts.append(f'<rect x="{margin_left}" y="{top}" width="{plot_width}" height="{panel_height}" fill="none" stroke="#999"/>')
        for fraction in (0, 0.5, 1):
            y = top + panel_height * (1 - fraction)
            parts.append(f'<text x="{margin_left - 6}" y="{y + 4}" text-anchor="end">{high * fraction:,.0f}</text>')
        points = " ".join(f"{margin_left + row[0] / end * plot_width:.1f},{top + panel_height * (1 - row[column] / high):.1f}"
                          for row in rows)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"/>')
        parts.append(f'<text x="{margin_left + plot_width}" y="{top + panel_height + 15}" text-anchor="end">{end / 60:.0f} min</text>')
        parts.append(f'<text x="{margin_left}" y="{top + panel_height + 15}">0</text>')
    parts.append("</svg>")
    with open(path, "w") as handle:
        handle.write("\n".join(parts) + "\n")
