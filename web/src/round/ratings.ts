// P23 during a rated game: each account's rating in the game's rating class, asked
// once of GET /api/v1/players/NAME/ratings (the state carries ratings only once the
// game is over). The bar shows "1500?" beside the name while the game is played.
import type { GameState } from '../types';

interface ClassRating { rating: number; provisional: boolean }

// The rating class of a game (docs/protocol.md, Ratings): Chess960 is a class of its
// own; a clock's "standard" class is rated as classical.
export function ratingClass(s: GameState): string | null {
  if (s.variant === 'chess960') return 'chess960';
  const cls = s.clock?.class;
  if (!cls || cls === 'unlimited') return null;
  return cls === 'standard' ? 'classical' : cls;
}

export class LiveRatings {
  private readonly known = new Map<string, ClassRating | null>(); // account -> rating (null: asked, none)

  constructor(private readonly redraw: () => void) {}

  // The rating of an account in the game's class, or null (not rated, not known yet).
  of(s: GameState, account: string | null | undefined): ClassRating | null {
    const cls = ratingClass(s);
    if (!s.rated || !account || !cls) return null;
    const key = `${account}\u0000${cls}`;
    if (!this.known.has(key)) {
      this.known.set(key, null);
      void fetch(`/api/v1/players/${encodeURIComponent(account)}/ratings`).then((r) => (r.ok ? r.json() : null))
        .then((body: { ratings?: Record<string, ClassRating> } | null) => {
          const x = body?.ratings?.[cls];
          if (x && typeof x.rating === 'number') { this.known.set(key, { rating: x.rating, provisional: !!x.provisional }); this.redraw(); }
        }).catch(() => { /* the name alone */ });
    }
    return this.known.get(key) ?? null;
  }
}
