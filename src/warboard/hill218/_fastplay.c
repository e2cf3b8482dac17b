/*
 * _fastplay: uniformly random games of hill218 / ogre218 played entirely in C.
 *
 * An optional native fast path for benchmarks and rollouts. It follows the rules contract
 * (../shared/rules/hill218.md, §3-§5) and mirrors the pure-Python reference engine
 * (warboard.hill218.state) decision for decision: the same chance events in the same order and,
 * at every decision, a uniformly random one of ALL distinct complete legal plays (§7: each
 * deployment cell x each ordered hit sequence, plus one strike per enemy unit).
 *
 * Nothing about the units is compiled in: warboard.hill218.fast encodes the ruleset's tables
 * (diagrams already turned to each seat's frame, deck counts, ...) as a flat list of ints that
 * make_rules() reads into a Rules struct held by a capsule. The layout is documented at
 * read_rules() and in fast.py.
 *
 * The board is a fixed w x w window with the hill (0, 0) in the middle, w a power of two from
 * 256 to 1024 chosen by make_rules() as the smallest that provably holds every game: every
 * placement lies within reach_place = max(2, largest supply offset) of the bounding box of the
 * hill and the units (own base: 1 from the hill; supply: a supply offset from a unit; drop: 2
 * from the box), a seat places at most one unit per card, and every lookup lies within
 * reach_look (the largest offset of any diagram) of a unit or of a cell a unit could be placed
 * on. A ruleset that would need more is refused; so is a position too close to the edge.
 * Placements are checked at run time as well (ERR_WINDOW), so a bug cannot read or write
 * outside the arrays.
 *
 * No global mutable state: each call allocates its own Game (board plus scratch arrays) and
 * frees it before returning. random_games() releases the GIL while it plays. The batches of
 * stepped games that warboard.hill218.vector drives are in _fastplay_vector.c, #included
 * below.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ sizes */

#define MIN_LOG_W 8             /* the window's side w is 1 << log_w ... */
#define MAX_LOG_W 10            /* ... cells (x, y) with -w/2 <= x, y < w/2 */
#define MAX_UNITS 32            /* unit types of a ruleset (board codes must fit a byte) */
#define MAX_OFFS 64             /* squares of one diagram */
#define MAX_UNION 256           /* distinct squares of all units' diagrams of one kind */
#define MAX_ATTACKS 4           /* attacks of one unit (ruleset.py allows 1..4) */
#define MAX_DECK 256            /* cards of one deck */
#define MAX_OCC 512             /* units on the board */
#define N_BURY 2                /* cards put under the deck at setup (contract §3) */
#define MAX_TURNS 1000000       /* a game always ends far sooner; guards against a rules bug */

/* board codes: 0 = empty, else 1 + (unit id * 2 + seat) */
#define CODE(uid, seat) ((uint8_t)((((uid) << 1) | (seat)) + 1))
#define UID(code) (((code) - 1) >> 1)
#define SEAT(code) (((code) - 1) & 1)

/* The ValueError of a position that does not fit the board window (WindowError in Python):
 * set once when the module is imported. */
static PyObject *WindowError;

/* errors of a game run (Python exceptions are raised from them once the GIL is held) */
enum { OK = 0, ERR_NOMEM, ERR_TURNS, ERR_WINDOW, ERR_INTERNAL };

/* event kinds of a trace (decoded by fast.py) */
enum { EV_FIRST = 1, EV_DRAW, EV_BURY, EV_DEPLOY, EV_STRIKE };

/* ------------------------------------------------------------------ random numbers */

/* xoshiro256** seeded through splitmix64 (Blackman & Vigna): fast, small, reproducible. */
typedef struct { uint64_t s[4]; } Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A uniform integer in [0, n), 1 <= n < 2^32, exactly unbiased (Lemire's multiply-and-reject;
 * 32-bit so that it needs no 128-bit type). */
static uint32_t rng_below(Rng *r, uint32_t n)
{
    uint64_t m = (rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* ------------------------------------------------------------------ the ruleset tables */

typedef struct {
    int n;
    int dx[MAX_OFFS], dy[MAX_OFFS]; /* in the seat's board frame */
    int off[MAX_OFFS];          /* the same packed for the window: dx * w + dy */
    unsigned char ind[MAX_OFFS]; /* attack diagrams: 1 = individual (needs no support) */
} Diagram;

/* Every square of one kind of diagram of one seat, each with the set of units having it. */
typedef struct {
    int n;
    int off[MAX_UNION];
    uint32_t units[MAX_UNION];  /* bit u: unit u's diagram has this square */
} Union;

typedef struct {
    int n_units;
    int push;                   /* supply model: 0 = pull (hill218), 1 = push (ogre218) */
    int setup_draw;             /* cards each seat draws at setup (5, or 3 with quick_start) */
    int bury;                   /* 1: each seat then puts 2 of them under its deck */
    int strikes[2];
    int deck[2][MAX_UNITS];     /* deck contents by unit id (handicap already applied) */
    int deck_total[2];
    int attacks[MAX_UNITS], counts_as[MAX_UNITS], plays[MAX_UNITS], drop[MAX_UNITS];
    int hit_becomes[MAX_UNITS]; /* unit id a hit turns it into, or -1: destroyed */
    int origin[MAX_UNITS];      /* the unit id a hit turned into this one, or -1 */
    int hits_to_destroy[MAX_UNITS];
    Diagram supply[2][MAX_UNITS], attack[2][MAX_UNITS], support[2][MAX_UNITS];
    Union supply_union[2], support_union[2];
    int reach_place;            /* max(2, largest supply offset component) */
    int reach_look;             /* largest offset component of any diagram */
    int w, half;                /* the window: cell (x, y) is (x + half) * w + (y + half) */
    int hill;                   /* the cell (0, 0) */
} Rules;

static int cell_x(const Rules *R, int c) { return c / R->w - R->half; }
static int cell_y(const Rules *R, int c) { return c % R->w - R->half; }
static int cell_at(const Rules *R, int x, int y) { return (x + R->half) * R->w + (y + R->half); }
static int base_cell(const Rules *R, int seat) { return R->hill + (seat == 0 ? -1 : 1); }  /* (0, -1), (0, 1) */

/* ------------------------------------------------------------------ game state */

typedef struct {
    int top[MAX_DECK];          /* known order (positions only), drawn from itop */
    int ntop, itop;
    int pool[MAX_UNITS];        /* shuffled part, by unit id: each draw is uniform over it */
    int pool_n;
    int bottom[N_BURY];         /* the cards put under the deck, drawn from ibottom */
    int nbottom, ibottom;
} Deck;

typedef struct {
    int32_t *v;
    size_t n, cap;
} Trace;

typedef struct {
    int kind;                   /* EV_DEPLOY or EV_STRIKE */
    int uid, cell;
    int nhits;
    int hits[MAX_ATTACKS];      /* cells, in order */
} Play;

typedef struct {
    int winner;                 /* 0, 1, or -1 for a draw */
    int reason;                 /* 0 = base, 1 = count */
    int units[2];
    long long plays;
} Result;

typedef struct {
    const Rules *R;
    Rng rng;
    Trace *trace;               /* NULL unless the caller wants the events */
    int error;
    int over, winner;
    size_t ncells;              /* w * w */
    uint8_t *board;             /* ncells codes */
    int occ[MAX_OCC];           /* occupied cells, in no particular order */
    int nocc;
    int hand[2][MAX_UNITS];
    Deck deck[2];
    int strikes[2];
    int destroyed[2][MAX_UNITS];  /* by owner: a unit counts for itself and for its origin */
    int limit;                  /* a unit may stand at most this far from the hill (|x|, |y|) */
    /* supplied cells of each seat, valid while sup_version[seat] == version */
    uint64_t version, sup_version[2];
    int sup[2][MAX_OCC];
    int nsup[2];
    /* scratch: mark[c] == gen marks the cells of the set being built */
    uint32_t gen;
    uint32_t *mark;             /* ncells */
    int *cells;                 /* ncells: the deployment cells of one unit */
} Game;

static void game_free(Game *g)
{
    if (g) {
        PyMem_RawFree(g->board);
        PyMem_RawFree(g->mark);
        PyMem_RawFree(g->cells);
        PyMem_RawFree(g);
    }
}

static Game *game_new(const Rules *R)
{
    Game *g = PyMem_RawCalloc(1, sizeof(Game));
    if (!g)
        return NULL;
    g->R = R;
    g->version = 1;
    g->limit = R->half - 1 - R->reach_place - R->reach_look;
    g->ncells = (size_t)R->w * (size_t)R->w;
    g->board = PyMem_RawCalloc(g->ncells, sizeof *g->board);
    g->mark = PyMem_RawCalloc(g->ncells, sizeof *g->mark);
    g->cells = PyMem_RawMalloc(g->ncells * sizeof *g->cells);
    if (!g->board || !g->mark || !g->cells) {
        game_free(g);
        return NULL;
    }
    return g;
}

static uint32_t next_gen(Game *g)
{
    if (++g->gen == 0) {        /* wrapped: forget every old mark */
        memset(g->mark, 0, g->ncells * sizeof *g->mark);
        g->gen = 1;
    }
    return g->gen;
}

static void emit(Game *g, const int32_t *vals, int n)
{
    Trace *t = g->trace;
    if (!t || g->error)
        return;
    if (t->n + (size_t)n > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < t->n + (size_t)n)
            cap *= 2;
        int32_t *v = PyMem_RawRealloc(t->v, cap * sizeof(int32_t));
        if (!v) {
            g->error = ERR_NOMEM;
            return;
        }
        t->v = v;
        t->cap = cap;
    }
    memcpy(t->v + t->n, vals, (size_t)n * sizeof(int32_t));
    t->n += (size_t)n;
}

static int deck_size(const Deck *d)
{
    return (d->ntop - d->itop) + d->pool_n + (d->nbottom - d->ibottom);
}

/* ------------------------------------------------------------------ board changes */

static void place(Game *g, int c, int uid, int seat)
{
    int x = cell_x(g->R, c), y = cell_y(g->R, c);
    if (x < -g->limit || x > g->limit || y < -g->limit || y > g->limit || g->nocc >= MAX_OCC
            || g->board[c]) {
        g->error = ERR_WINDOW;  /* unreachable when the window proof holds */
        return;
    }
    g->board[c] = CODE(uid, seat);
    g->occ[g->nocc++] = c;
    g->version++;
}

static void remove_unit(Game *g, int c)
{
    g->board[c] = 0;
    for (int i = 0; i < g->nocc; i++) {
        if (g->occ[i] == c) {
            g->occ[i] = g->occ[--g->nocc];
            break;
        }
    }
    g->version++;
}

/* A hit: the unit turns into its hit_becomes card (Ogre -> damaged Ogre) or is destroyed. */
static void hit(Game *g, int t)
{
    int code = g->board[t];
    if (!code) {
        g->error = ERR_INTERNAL;
        return;
    }
    int uid = UID(code), owner = SEAT(code);
    int becomes = g->R->hit_becomes[uid];
    if (becomes >= 0) {
        g->board[t] = CODE(becomes, owner);
        g->version++;
    } else {
        remove_unit(g, t);
        g->destroyed[owner][uid]++;
        if (g->R->origin[uid] >= 0)
            g->destroyed[owner][g->R->origin[uid]]++;
    }
}

static int unit_count(const Game *g, int seat)
{
    int n = 0;
    for (int i = 0; i < g->nocc; i++) {
        int code = g->board[g->occ[i]];
        if (SEAT(code) == seat)
            n += g->R->counts_as[UID(code)];
    }
    return n;
}

static int enemy_units(const Game *g, int seat)
{
    int n = 0;
    for (int i = 0; i < g->nocc; i++)
        n += SEAT(g->board[g->occ[i]]) != seat;
    return n;
}

/* ------------------------------------------------------------------ board facts (§4) */

/* The cells of `seat`'s supplied units: the fixpoint grown from the own base, when the seat holds
 * it. Pull: a unit at q is supplied when a supplied friend stands at q + d, d in q's own supply
 * diagram. Push: a supplied unit at p supplies the friends on p + d, d in p's diagram. */
static const int *supplied(Game *g, int seat, int *n_out)
{
    if (g->sup_version[seat] != g->version) {
        const Rules *R = g->R;
        int *sup = g->sup[seat];
        int n = 0;
        int base = base_cell(R, seat);
        int code = g->board[base];
        if (code && SEAT(code) == seat) {
            uint32_t gen = next_gen(g);
            g->mark[base] = gen;
            sup[n++] = base;
            for (int i = 0; i < n; i++) {
                int p = sup[i];
                if (R->push) {
                    const Diagram *d = &R->supply[seat][UID(g->board[p])];
                    for (int k = 0; k < d->n; k++) {
                        int q = p + d->off[k], cq = g->board[q];
                        if (cq && SEAT(cq) == seat && g->mark[q] != gen) {
                            g->mark[q] = gen;
                            sup[n++] = q;
                        }
                    }
                } else {
                    const Union *u = &R->supply_union[seat];
                    for (int k = 0; k < u->n; k++) {
                        int q = p - u->off[k], cq = g->board[q];
                        if (cq && SEAT(cq) == seat && g->mark[q] != gen
                                && (u->units[k] >> UID(cq) & 1)) {
                            g->mark[q] = gen;
                            sup[n++] = q;
                        }
                    }
                }
            }
        }
        g->nsup[seat] = n;
        g->sup_version[seat] = g->version;
    }
    *n_out = g->nsup[seat];
    return g->sup[seat];
}

/* The empty cells where `seat` may deploy `uid` by supply, each once, into out[]: the own base
 * while it is empty, else the supplied cells (when the seat holds its base). Each is marked with
 * *gen_out in g->mark. */
static int supply_cells(Game *g, int seat, int uid, int *out, uint32_t *gen_out)
{
    const Rules *R = g->R;
    uint8_t *board = g->board;
    uint32_t gen;
    int n = 0;
    int base = base_cell(R, seat), code = board[base];
    if (!code) {
        gen = next_gen(g);
        g->mark[base] = gen;
        out[n++] = base;
    } else if (SEAT(code) == seat) {
        int nsup;
        const int *sup = supplied(g, seat, &nsup);  /* before next_gen: it uses the marks too */
        gen = next_gen(g);
        for (int i = 0; i < nsup; i++) {
            int p = sup[i];
            /* pull: c is supplied for uid when c + d is supplied, d in uid's diagram;
             * push: p supplies p + d, d in the diagram of the unit at p */
            const Diagram *d = R->push ? &R->supply[seat][UID(board[p])] : &R->supply[seat][uid];
            int sign = R->push ? 1 : -1;
            for (int k = 0; k < d->n; k++) {
                int c = p + sign * d->off[k];
                if (!board[c] && c != R->hill && g->mark[c] != gen) {
                    g->mark[c] = gen;
                    out[n++] = c;
                }
            }
        }
    } else {
        gen = next_gen(g);      /* the enemy holds the own base: no supplied cells */
    }
    *gen_out = gen;
    return n;
}

/* Adds to out[n..] the cells of the drop zone not marked with gen: the bounding box of the hill
 * and every unit grown by 2, less the hill, the enemy base and occupied cells. */
static int add_drop_cells(Game *g, int seat, uint32_t gen, int *out, int n)
{
    const Rules *R = g->R;
    const uint8_t *board = g->board;
    const int w = R->w;
    int x0 = R->half, x1 = R->half, y0 = R->half, y1 = R->half;  /* the hill, as indices */
    for (int i = 0; i < g->nocc; i++) {
        int xi = g->occ[i] / w, yi = g->occ[i] % w;
        if (xi < x0) x0 = xi;
        if (xi > x1) x1 = xi;
        if (yi < y0) y0 = yi;
        if (yi > y1) y1 = yi;
    }
    int enemy_base = base_cell(R, 1 - seat);
    for (int xi = x0 - 2; xi <= x1 + 2; xi++) {
        for (int yi = y0 - 2; yi <= y1 + 2; yi++) {
            int c = xi * w + yi;
            if (!board[c] && c != R->hill && c != enemy_base && g->mark[c] != gen) {
                g->mark[c] = gen;
                out[n++] = c;
            }
        }
    }
    return n;
}

/* Every empty cell where `seat` may deploy `uid` (not counting how many plays it costs), each
 * once, into out[]: the supplied cells, plus for drop units the drop zone. */
static int deploy_cells(Game *g, int seat, int uid, int *out)
{
    uint32_t gen;
    int n = supply_cells(g, seat, uid, out, &gen);
    if (g->R->drop[uid])
        n = add_drop_cells(g, seat, gen, out, n);
    return n;
}

/* Does a friendly unit of `seat` other than the one at `attacker` have `t` among its support
 * squares? (Supplied or not: §4.) */
static int is_supported(const Game *g, int seat, int t, int attacker)
{
    const Union *u = &g->R->support_union[seat];
    for (int k = 0; k < u->n; k++) {
        int q = t - u->off[k], code = g->board[q];
        if (code && SEAT(code) == seat && q != attacker && (u->units[k] >> UID(code) & 1))
            return 1;
    }
    return 0;
}

/* The enemy cells that `uid` deployed at the empty cell c could hit now, with the hits each
 * takes to destroy. Attack squares are distinct, so the targets are too. */
static int targets_at(const Game *g, int seat, int uid, int c, int *tgt, int *hp)
{
    const Rules *R = g->R;
    const Diagram *a = &R->attack[seat][uid];
    int n = 0;
    for (int k = 0; k < a->n; k++) {
        int t = c + a->off[k], code = g->board[t];
        if (code && SEAT(code) != seat && (a->ind[k] || is_supported(g, seat, t, c))) {
            tgt[n] = t;
            hp[n] = R->hits_to_destroy[UID(code)];
            n++;
        }
    }
    return n;
}

/* How many ordered hit sequences `left` attacks make on targets with hp[] hits left: each attack
 * must hit a target still standing while there is one (so a sequence may end early). */
static int64_t count_sequences(int left, int n, int *hp)
{
    if (left == 0)
        return 1;
    int64_t total = 0;
    int any = 0;
    for (int i = 0; i < n; i++) {
        if (hp[i] > 0) {
            any = 1;
            hp[i]--;
            total += count_sequences(left - 1, n, hp);
            hp[i]++;
        }
    }
    return any ? total : 1;
}

/* The r-th sequence in count_sequences' order, as target indices; returns its length. */
static int pick_sequence(int left, int n, int *hp, int64_t r, int *out)
{
    int len = 0;
    while (left > 0) {
        int chosen = -1;
        for (int i = 0; i < n && chosen < 0; i++) {
            if (hp[i] <= 0)
                continue;
            hp[i]--;
            int64_t k = count_sequences(left - 1, n, hp);
            if (r < k) {
                chosen = i;     /* keep the hit */
            } else {
                r -= k;
                hp[i]++;
            }
        }
        if (chosen < 0)
            break;              /* nothing left standing */
        out[len++] = chosen;
        left--;
    }
    return len;
}

/* The number of complete plays "deploy uid at c": one per hit sequence (one when nothing can be
 * hit, or when c is the enemy base: taking it makes no attack). */
static int64_t cell_plays(const Game *g, int seat, int uid, int c)
{
    if (c == base_cell(g->R, 1 - seat))
        return 1;
    int tgt[MAX_OFFS], hp[MAX_OFFS];
    int n = targets_at(g, seat, uid, c, tgt, hp);
    if (n == 0)
        return 1;
    if (g->R->attacks[uid] == 1)
        return n;
    return count_sequences(g->R->attacks[uid], n, hp);
}

/* Counts every complete legal play of `seat` with `plays_left` plays (§7), per unit into per[]
 * (may be NULL). Returns 0 exactly when the seat has no legal play. */
static int64_t count_plays(Game *g, int seat, int plays_left, int64_t *per)
{
    const Rules *R = g->R;
    int64_t total = 0;
    for (int uid = 0; uid < R->n_units; uid++) {
        int64_t k = 0;
        if (g->hand[seat][uid] > 0 && R->plays[uid] <= plays_left) {
            int n = deploy_cells(g, seat, uid, g->cells);
            for (int i = 0; i < n; i++)
                k += cell_plays(g, seat, uid, g->cells[i]);
        }
        if (per)
            per[uid] = k;
        total += k;
    }
    if (g->strikes[seat] > 0)
        total += enemy_units(g, seat);
    return total;
}

/* Does `seat` have a legal play with `plays_left` plays? (The §5 end test.) */
static int has_play(Game *g, int seat, int plays_left)
{
    const Rules *R = g->R;
    if (g->strikes[seat] > 0 && enemy_units(g, seat) > 0)
        return 1;
    for (int uid = 0; uid < R->n_units; uid++) {
        if (g->hand[seat][uid] > 0 && R->plays[uid] <= plays_left
                && (R->drop[uid] || deploy_cells(g, seat, uid, g->cells) > 0))
            return 1;
    }
    return 0;
}

/* Draws a uniformly random one of the complete legal plays into *p; 0 when there is none. */
static int choose_play(Game *g, int seat, int plays_left, Play *p)
{
    const Rules *R = g->R;
    int64_t per[MAX_UNITS];
    int64_t total = count_plays(g, seat, plays_left, per);
    if (total == 0)
        return 0;
    if (total >= ((int64_t)1 << 32)) {
        g->error = ERR_INTERNAL;  /* far beyond any real position */
        return 0;
    }
    int64_t r = rng_below(&g->rng, (uint32_t)total);
    for (int uid = 0; uid < R->n_units; uid++) {
        if (r >= per[uid]) {
            r -= per[uid];
            continue;
        }
        int n = deploy_cells(g, seat, uid, g->cells);
        for (int i = 0; i < n; i++) {
            int c = g->cells[i];
            int64_t k = cell_plays(g, seat, uid, c);
            if (r >= k) {
                r -= k;
                continue;
            }
            p->kind = EV_DEPLOY;
            p->uid = uid;
            p->cell = c;
            p->nhits = 0;
            if (c != base_cell(R, 1 - seat)) {
                int tgt[MAX_OFFS], hp[MAX_OFFS], seq[MAX_ATTACKS];
                int nt = targets_at(g, seat, uid, c, tgt, hp);
                if (nt > 0) {
                    p->nhits = pick_sequence(R->attacks[uid], nt, hp, r, seq);
                    for (int h = 0; h < p->nhits; h++)
                        p->hits[h] = tgt[seq[h]];
                }
            }
            return 1;
        }
        g->error = ERR_INTERNAL;
        return 0;
    }
    for (int i = 0; i < g->nocc; i++) {
        int c = g->occ[i];
        if (SEAT(g->board[c]) != seat && r-- == 0) {
            p->kind = EV_STRIKE;
            p->cell = c;
            p->nhits = 0;
            return 1;
        }
    }
    g->error = ERR_INTERNAL;
    return 0;
}

static void emit_play(Game *g, const Play *p)
{
    const Rules *R = g->R;
    int32_t ev[5 + 2 * MAX_ATTACKS];
    int n = 0;
    if (p->kind == EV_STRIKE) {
        ev[n++] = EV_STRIKE;
        ev[n++] = cell_x(R, p->cell);
        ev[n++] = cell_y(R, p->cell);
    } else {
        ev[n++] = EV_DEPLOY;
        ev[n++] = p->uid;
        ev[n++] = cell_x(R, p->cell);
        ev[n++] = cell_y(R, p->cell);
        ev[n++] = p->nhits;
        for (int h = 0; h < p->nhits; h++) {
            ev[n++] = cell_x(R, p->hits[h]);
            ev[n++] = cell_y(R, p->hits[h]);
        }
    }
    emit(g, ev, n);
}

/* Applies a play from choose_play; returns the plays it uses. */
static int apply_play(Game *g, int seat, const Play *p)
{
    emit_play(g, p);
    if (p->kind == EV_STRIKE) {
        g->strikes[seat]--;
        hit(g, p->cell);
        return 1;
    }
    g->hand[seat][p->uid]--;
    place(g, p->cell, p->uid, seat);
    if (p->cell == base_cell(g->R, 1 - seat)) {   /* taking the enemy base wins at once */
        g->over = 1;
        g->winner = seat;
        return g->R->plays[p->uid];
    }
    for (int h = 0; h < p->nhits; h++)
        hit(g, p->hits[h]);
    return g->R->plays[p->uid];
}

/* ------------------------------------------------------------------ cards */

/* Draws up to n cards: the known top, then the shuffled pool (each card a chance event, as in
 * the Python engine, even when one kind is left: how many events there are must not tell a seat
 * what the other's deck holds), then the cards put under the deck. */
static void draw_cards(Game *g, int seat, int n)
{
    const Rules *R = g->R;
    Deck *d = &g->deck[seat];
    for (; n > 0; n--) {
        int uid;
        if (d->itop < d->ntop) {
            uid = d->top[d->itop++];
        } else if (d->pool_n > 0) {
            int kinds = 0;
            for (int u = 0; u < R->n_units; u++)
                kinds += d->pool[u] > 0;
            int r = kinds > 1 ? (int)rng_below(&g->rng, (uint32_t)d->pool_n) : 0;
            for (uid = 0; uid < R->n_units; uid++) {
                if (r < d->pool[uid])
                    break;
                r -= d->pool[uid];
            }
            d->pool[uid]--;
            d->pool_n--;
            int32_t ev[2] = {EV_DRAW, uid};
            emit(g, ev, 2);
        } else if (d->ibottom < d->nbottom) {
            uid = d->bottom[d->ibottom++];
        } else {
            return;
        }
        g->hand[seat][uid]++;
    }
}

/* Setup: `seat` puts cards a and b from its hand under its deck, a first, b under it. */
static void bury_pair(Game *g, int seat, int a, int b)
{
    int32_t ev[3] = {EV_BURY, a, b};
    emit(g, ev, 3);
    g->hand[seat][a]--;
    g->hand[seat][b]--;
    Deck *d = &g->deck[seat];
    d->bottom[0] = a;
    d->bottom[1] = b;
    d->nbottom = N_BURY;
    d->ibottom = 0;
}

/* Setup: put 2 cards under the deck, uniformly among the distinct ordered pairs of unit types
 * (the same type twice when the hand holds 2+). */
static void bury(Game *g, int seat)
{
    const Rules *R = g->R;
    int *hand = g->hand[seat];
    int kinds = 0, doubles = 0;
    for (int u = 0; u < R->n_units; u++) {
        kinds += hand[u] > 0;
        doubles += hand[u] > 1;
    }
    uint32_t total = (uint32_t)(kinds * (kinds - 1) + doubles);
    if (total == 0) {
        g->error = ERR_INTERNAL;  /* make_rules ensures every hand holds 2+ cards */
        return;
    }
    uint32_t r = rng_below(&g->rng, total);
    for (int a = 0; a < R->n_units; a++) {
        if (!hand[a])
            continue;
        for (int b = 0; b < R->n_units; b++) {
            if (hand[b] <= (a == b))
                continue;
            if (r-- == 0) {
                bury_pair(g, seat, a, b);
                return;
            }
        }
    }
    g->error = ERR_INTERNAL;
}

/* ------------------------------------------------------------------ whole games */

static void clear_board(Game *g)
{
    for (int i = 0; i < g->nocc; i++)
        g->board[g->occ[i]] = 0;
    g->nocc = 0;
    g->version++;
    g->over = 0;
    g->winner = -1;
}

/* The §5 end by count, tested at the end of each turn: both decks are empty and neither seat
 * could play with a full turn's 2 plays. */
static int cards_exhausted(Game *g)
{
    return deck_size(&g->deck[0]) == 0 && deck_size(&g->deck[1]) == 0
        && !has_play(g, 0, 2) && !has_play(g, 1, 2);
}

static void finish(Game *g, Result *res, int reason)
{
    res->units[0] = unit_count(g, 0);
    res->units[1] = unit_count(g, 1);
    res->reason = reason;
    if (reason == 0)
        res->winner = g->winner;
    else
        res->winner = res->units[0] == res->units[1] ? -1 : (res->units[0] > res->units[1] ? 0 : 1);
}

/* Plays on from a decision point (seat to move with plays_left plays, its draw taken) to the end
 * of the game (§4, §5). */
static int play_on(Game *g, int seat, int plays_left, Result *res)
{
    for (long turn = 0; turn < MAX_TURNS; turn++) {
        while (plays_left > 0) {
            Play p;
            if (!choose_play(g, seat, plays_left, &p))
                break;          /* no legal play: the rest of the turn is forfeited */
            plays_left -= apply_play(g, seat, &p);
            res->plays++;
            if (g->error)
                return g->error;
            if (g->over) {
                finish(g, res, 0);
                return OK;
            }
        }
        if (g->error)
            return g->error;
        if (cards_exhausted(g)) {
            finish(g, res, 1);
            return OK;
        }
        seat = 1 - seat;
        draw_cards(g, seat, 2);
        plays_left = 2;
    }
    return ERR_TURNS;
}

/* The start of a fresh game (§3): empty board and hands, full shuffled decks; then the first
 * player is drawn and returned. */
static int start_game(Game *g)
{
    const Rules *R = g->R;
    clear_board(g);
    memset(g->hand, 0, sizeof g->hand);
    memset(g->destroyed, 0, sizeof g->destroyed);
    for (int s = 0; s < 2; s++) {
        Deck *d = &g->deck[s];
        d->ntop = d->itop = d->nbottom = d->ibottom = 0;
        memcpy(d->pool, R->deck[s], sizeof d->pool);
        d->pool_n = R->deck_total[s];
        g->strikes[s] = R->strikes[s];
    }
    int first = (int)rng_below(&g->rng, 2);
    int32_t ev[2] = {EV_FIRST, first};
    emit(g, ev, 2);
    return first;
}

/* A fresh game (§3): first player, shuffled decks, setup draws and burials, then the turns. */
static int play_new_game(Game *g, Result *res)
{
    const Rules *R = g->R;
    res->plays = 0;
    int first = start_game(g);
    for (int s = 0; s < 2; s++) {
        draw_cards(g, s, R->setup_draw);
        if (R->bury)
            bury(g, s);
    }
    if (g->error)
        return g->error;
    draw_cards(g, first, 1);    /* the first player's first turn: draw 1, play 1 */
    return play_on(g, first, 1, res);
}

/* ------------------------------------------------------------------ reading ints from Python */

typedef struct {
    PyObject *fast;             /* PySequence_Fast of the list */
    Py_ssize_t i, n;
    const char *what;
} Reader;

static int reader_open(Reader *rd, PyObject *obj, const char *what)
{
    rd->fast = PySequence_Fast(obj, "expected a sequence of ints");
    rd->i = 0;
    rd->n = rd->fast ? PySequence_Fast_GET_SIZE(rd->fast) : 0;
    rd->what = what;
    return rd->fast ? 0 : -1;
}

static void reader_close(Reader *rd) { Py_CLEAR(rd->fast); }

/* The next int, which must lie in [lo, hi]; -1 with ValueError otherwise. */
static int next_int(Reader *rd, long lo, long hi, int *out)
{
    if (rd->i >= rd->n) {
        PyErr_Format(PyExc_ValueError, "%s: ends early (item %zd)", rd->what, rd->i);
        return -1;
    }
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(rd->fast, rd->i));
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s: item %zd is %ld, outside [%ld, %ld]", rd->what,
                     rd->i, v, lo, hi);
        return -1;
    }
    rd->i++;
    *out = (int)v;
    return 0;
}

static int reader_finish(Reader *rd)
{
    if (rd->i != rd->n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items left over", rd->what, rd->n - rd->i);
        return -1;
    }
    return 0;
}

static int imax(int a, int b) { return a > b ? a : b; }
static int iabs(int a) { return a < 0 ? -a : a; }

/* One diagram: n, then n times (dx, dy) or, for attacks, (dx, dy, individual). Tracks the largest
 * offset component in *reach; the packed offsets are set once the window is chosen. */
static int read_diagram(Reader *rd, Diagram *d, int with_flag, int *reach)
{
    const int lim = 1 << (MAX_LOG_W - 1);  /* any offset this far fails the window proof */
    if (next_int(rd, 0, MAX_OFFS, &d->n) < 0)
        return -1;
    for (int k = 0; k < d->n; k++) {
        int dx, dy, ind = 0;
        if (next_int(rd, -lim, lim, &dx) < 0 || next_int(rd, -lim, lim, &dy) < 0)
            return -1;
        if (with_flag && next_int(rd, 0, 1, &ind) < 0)
            return -1;
        if (dx == 0 && dy == 0) {
            PyErr_SetString(PyExc_ValueError, "a diagram offset is (0, 0)");
            return -1;
        }
        for (int j = 0; j < k; j++) {
            if (d->dx[j] == dx && d->dy[j] == dy) {
                PyErr_SetString(PyExc_ValueError, "a diagram lists a square twice");
                return -1;
            }
        }
        d->dx[k] = dx;
        d->dy[k] = dy;
        d->ind[k] = (unsigned char)ind;
        *reach = imax(*reach, imax(iabs(dx), iabs(dy)));
    }
    return 0;
}

static void pack_diagram(const Rules *R, Diagram *d)
{
    for (int k = 0; k < d->n; k++)
        d->off[k] = d->dx[k] * R->w + d->dy[k];
}

static int add_union(Union *u, const Diagram *d, int uid)
{
    for (int k = 0; k < d->n; k++) {
        int j = 0;
        while (j < u->n && u->off[j] != d->off[k])
            j++;
        if (j == u->n) {
            if (u->n >= MAX_UNION) {
                PyErr_SetString(PyExc_ValueError, "too many distinct diagram squares");
                return -1;
            }
            u->off[u->n] = d->off[k];
            u->units[u->n++] = 0;
        }
        u->units[j] |= (uint32_t)1 << uid;
    }
    return 0;
}

/* Does a game that still places up to `cards` units, from a board whose units all lie within
 * `extent` of the hill, provably stay inside the window? */
static int window_ok(const Rules *R, int extent, long cards)
{
    return extent + (long)R->reach_place * (cards + 1) + R->reach_look <= R->half - 1;
}

/*
 * The rules layout (all ints):
 *   n_units, push (0/1), setup_draw, bury (0/1), strikes[0], strikes[1],
 *   deck[0][n_units], deck[1][n_units],
 *   per unit: attacks, counts_as, plays, drop, hit_becomes (-1: none), origin (-1: none),
 *   per seat, per unit: supply (n, n * (dx, dy)), attack (n, n * (dx, dy, individual)),
 *                       support (n, n * (dx, dy))        -- offsets in the seat's board frame
 */
static int read_rules(Reader *rd, Rules *R)
{
    if (next_int(rd, 1, MAX_UNITS, &R->n_units) < 0 || next_int(rd, 0, 1, &R->push) < 0
            || next_int(rd, 0, 99, &R->setup_draw) < 0 || next_int(rd, 0, 1, &R->bury) < 0
            || next_int(rd, 0, 99, &R->strikes[0]) < 0 || next_int(rd, 0, 99, &R->strikes[1]) < 0)
        return -1;
    int nu = R->n_units;
    for (int s = 0; s < 2; s++) {
        R->deck_total[s] = 0;
        for (int u = 0; u < nu; u++) {
            if (next_int(rd, 0, MAX_DECK, &R->deck[s][u]) < 0)
                return -1;
            R->deck_total[s] += R->deck[s][u];
        }
        if (R->deck_total[s] > MAX_DECK) {
            PyErr_SetString(PyExc_ValueError, "a deck is too large");
            return -1;
        }
        if (R->bury && R->deck_total[s] < N_BURY) {
            PyErr_SetString(PyExc_ValueError, "a deck too small to put 2 cards under it");
            return -1;
        }
    }
    for (int u = 0; u < nu; u++) {
        if (next_int(rd, 1, MAX_ATTACKS, &R->attacks[u]) < 0
                || next_int(rd, 0, 99, &R->counts_as[u]) < 0
                || next_int(rd, 1, 2, &R->plays[u]) < 0 || next_int(rd, 0, 1, &R->drop[u]) < 0
                || next_int(rd, -1, nu - 1, &R->hit_becomes[u]) < 0
                || next_int(rd, -1, nu - 1, &R->origin[u]) < 0)
            return -1;
    }
    for (int u = 0; u < nu; u++) {  /* hits to destroy: follow hit_becomes to its end */
        int n = 1, j = u;
        while (R->hit_becomes[j] >= 0 && n <= nu) {
            j = R->hit_becomes[j];
            n++;
        }
        if (n > nu) {
            PyErr_SetString(PyExc_ValueError, "hit_becomes forms a cycle");
            return -1;
        }
        R->hits_to_destroy[u] = n;
    }
    int supply_reach = 0, reach = 0;
    for (int s = 0; s < 2; s++) {
        for (int u = 0; u < nu; u++) {
            if (read_diagram(rd, &R->supply[s][u], 0, &supply_reach) < 0
                    || read_diagram(rd, &R->attack[s][u], 1, &reach) < 0
                    || read_diagram(rd, &R->support[s][u], 0, &reach) < 0)
                return -1;
        }
    }
    if (reader_finish(rd) < 0)
        return -1;
    R->reach_place = imax(2, supply_reach);  /* drops land within 2 of the bounding box */
    R->reach_look = imax(reach, supply_reach);
    /* the smallest window that provably holds a whole game */
    long cards = (long)R->deck_total[0] + R->deck_total[1];
    int log_w = MIN_LOG_W;
    for (;; log_w++) {
        R->w = 1 << log_w;
        R->half = R->w / 2;
        if (window_ok(R, 0, cards))
            break;
        if (log_w == MAX_LOG_W) {
            PyErr_Format(PyExc_ValueError,
                         "the ruleset's reach (%d per placement, %d per lookup) over %ld cards "
                         "could leave the largest board window (%dx%d)", R->reach_place,
                         R->reach_look, cards, R->w, R->w);
            return -1;
        }
    }
    R->hill = cell_at(R, 0, 0);
    for (int s = 0; s < 2; s++) {
        for (int u = 0; u < nu; u++) {
            pack_diagram(R, &R->supply[s][u]);
            pack_diagram(R, &R->attack[s][u]);
            pack_diagram(R, &R->support[s][u]);
            if (add_union(&R->supply_union[s], &R->supply[s][u], u) < 0
                    || add_union(&R->support_union[s], &R->support[s][u], u) < 0)
                return -1;
        }
    }
    return 0;
}

/* A §7 position read into plain arrays (so that it can start many games). */
typedef struct {
    int to_move, plays_left, strikes[2];
    int hand[2][MAX_UNITS];
    int ntop[2], top[2][MAX_DECK];
    int pool[2][MAX_UNITS];     /* the shuffled middle of each deck, by unit id */
    int nbottom[2], bottom[2][N_BURY];
    int nboard, board[MAX_OCC][4];  /* x, y, seat, uid */
} Position;

/*
 * The position layout (all ints):
 *   to_move, plays_left, strikes[0], strikes[1], hand[0][n_units], hand[1][n_units],
 *   per seat: its deck: n, n unit ids (the known top, top card first), pool[n_units] (the
 *     shuffled middle, drawn at random), m <= 2, m unit ids (the known bottom, drawn in order),
 *   then n_board, n_board * (x, y, seat, uid)
 */
static int read_position(Reader *rd, const Rules *R, Position *P)
{
    int nu = R->n_units;
    const int lim = R->half - 1;
    long cards = 0;
    if (next_int(rd, 0, 1, &P->to_move) < 0 || next_int(rd, 1, 2, &P->plays_left) < 0
            || next_int(rd, 0, 99, &P->strikes[0]) < 0 || next_int(rd, 0, 99, &P->strikes[1]) < 0)
        return -1;
    for (int s = 0; s < 2; s++) {
        for (int u = 0; u < nu; u++) {
            if (next_int(rd, 0, MAX_DECK, &P->hand[s][u]) < 0)
                return -1;
            cards += P->hand[s][u];
        }
    }
    for (int s = 0; s < 2; s++) {
        if (next_int(rd, 0, MAX_DECK, &P->ntop[s]) < 0)
            return -1;
        for (int i = 0; i < P->ntop[s]; i++) {
            if (next_int(rd, 0, nu - 1, &P->top[s][i]) < 0)
                return -1;
        }
        cards += P->ntop[s];
        for (int u = 0; u < nu; u++) {
            if (next_int(rd, 0, MAX_DECK, &P->pool[s][u]) < 0)
                return -1;
            cards += P->pool[s][u];
        }
        if (next_int(rd, 0, N_BURY, &P->nbottom[s]) < 0)
            return -1;
        for (int i = 0; i < P->nbottom[s]; i++) {
            if (next_int(rd, 0, nu - 1, &P->bottom[s][i]) < 0)
                return -1;
        }
        cards += P->nbottom[s];
    }
    if (next_int(rd, 0, MAX_OCC, &P->nboard) < 0)
        return -1;
    int extent = 0;
    for (int i = 0; i < P->nboard; i++) {
        int *e = P->board[i];
        if (next_int(rd, INT_MIN, INT_MAX, &e[0]) < 0 || next_int(rd, INT_MIN, INT_MAX, &e[1]) < 0
                || next_int(rd, 0, 1, &e[2]) < 0 || next_int(rd, 0, nu - 1, &e[3]) < 0)
            return -1;
        if (e[0] < -lim || e[0] > lim || e[1] < -lim || e[1] > lim) {
            PyErr_Format(WindowError, "a unit at (%d, %d) lies beyond the %dx%d board window",
                         e[0], e[1], R->w, R->w);
            return -1;
        }
        if (e[0] == 0 && e[1] == 0) {
            PyErr_SetString(PyExc_ValueError, "a unit stands on the hill");
            return -1;
        }
        extent = imax(extent, imax(iabs(e[0]), iabs(e[1])));
    }
    if (reader_finish(rd) < 0)
        return -1;
    if (!window_ok(R, extent, cards) || P->nboard + cards > MAX_OCC) {
        PyErr_Format(WindowError, "the position (units up to %d from the hill, %ld cards "
                     "to place) could leave the %dx%d board window", extent, cards, R->w, R->w);
        return -1;
    }
    return 0;
}

/* Sets the game to the position (each deck's known top and bottom, its shuffled pool). */
static int load_position(Game *g, const Position *P)
{
    clear_board(g);
    for (int s = 0; s < 2; s++) {
        Deck *d = &g->deck[s];
        memset(d, 0, sizeof *d);
        memcpy(d->top, P->top[s], sizeof d->top);
        d->ntop = P->ntop[s];
        for (int u = 0; u < g->R->n_units; u++) {
            d->pool[u] = P->pool[s][u];
            d->pool_n += P->pool[s][u];
        }
        memcpy(d->bottom, P->bottom[s], sizeof d->bottom);
        d->nbottom = P->nbottom[s];
        memcpy(g->hand[s], P->hand[s], sizeof g->hand[s]);
        g->strikes[s] = P->strikes[s];
    }
    for (int i = 0; i < P->nboard; i++) {
        const int *e = P->board[i];
        int c = cell_at(g->R, e[0], e[1]);
        if (g->board[c]) {
            g->error = ERR_INTERNAL;  /* reported as two units on one cell */
            return -1;
        }
        place(g, c, e[3], e[2]);
    }
    return g->error ? -1 : 0;
}

/* ------------------------------------------------------------------ the Python interface */

#define CAPSULE_NAME "warboard.hill218._fastplay.Rules"

static void rules_destroy(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, CAPSULE_NAME));
}

static const Rules *get_rules(PyObject *capsule)
{
    return PyCapsule_GetPointer(capsule, CAPSULE_NAME);  /* sets TypeError when not ours */
}

static PyObject *raise_game_error(int err)
{
    switch (err) {
    case ERR_NOMEM:
        return PyErr_NoMemory();
    case ERR_TURNS:
        PyErr_SetString(PyExc_RuntimeError, "_fastplay: a game did not end (rules bug)");
        return NULL;
    case ERR_WINDOW:
        PyErr_SetString(PyExc_RuntimeError, "_fastplay: a unit left the board window");
        return NULL;
    default:
        PyErr_SetString(PyExc_RuntimeError, "_fastplay: internal error");
        return NULL;
    }
}

PyDoc_STRVAR(make_rules_doc,
"make_rules(ints) -> capsule\n\nThe ruleset tables, encoded by warboard.hill218.fast.");

static PyObject *fp_make_rules(PyObject *self, PyObject *arg)
{
    Reader rd;
    if (reader_open(&rd, arg, "rules") < 0)
        return NULL;
    Rules *R = PyMem_Calloc(1, sizeof(Rules));
    if (!R) {
        reader_close(&rd);
        return PyErr_NoMemory();
    }
    int rc = read_rules(&rd, R);
    reader_close(&rd);
    if (rc < 0) {
        PyMem_Free(R);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(R, CAPSULE_NAME, rules_destroy);
    if (!capsule)
        PyMem_Free(R);
    return capsule;
}

/* Reads an optional position (None: fresh games). Returns a PyMem block, NULL with error set,
 * or NULL without error for None. */
static Position *position_arg(PyObject *obj, const Rules *R)
{
    if (obj == Py_None)
        return NULL;
    Reader rd;
    if (reader_open(&rd, obj, "position") < 0)
        return NULL;
    Position *P = PyMem_Calloc(1, sizeof(Position));
    if (!P) {
        reader_close(&rd);
        PyErr_NoMemory();
        return NULL;
    }
    int rc = read_position(&rd, R, P);
    reader_close(&rd);
    if (rc < 0) {
        PyMem_Free(P);
        return NULL;
    }
    return P;
}

/* A seed: any Python int, taken modulo 2^64. Returns -1 with an error set. */
static int read_seed(PyObject *obj, uint64_t *seed)
{
    *seed = PyLong_AsUnsignedLongLongMask(obj);
    return PyErr_Occurred() ? -1 : 0;
}

/* A position that must be given: `who` names the function in the error for None. */
static Position *required_position(PyObject *obj, const Rules *R, const char *who)
{
    if (obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s needs a position", who);
        return NULL;
    }
    return position_arg(obj, R);
}

/* What an entry point plays in: the rules of `capsule`, the position `pos_obj` (P; `who`
   names an entry that needs one, else None is a new game and P is NULL) and a game on those
   rules. Returns -1 with an error set, having freed what it made; close_game frees the rest. */
static int open_game(PyObject *capsule, PyObject *pos_obj, const char *who, Position **P,
                     Game **g)
{
    const Rules *R = get_rules(capsule);
    if (!R)
        return -1;
    *P = who ? required_position(pos_obj, R, who) : position_arg(pos_obj, R);
    if (!*P && (who || PyErr_Occurred()))
        return -1;
    *g = game_new(R);
    if (!*g) {
        PyMem_Free(*P);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void close_game(Game *g, Position *P)
{
    game_free(g);
    PyMem_Free(P);
}

/* One game: fresh, or played on from P. */
static int run_one(Game *g, const Position *P, Result *res)
{
    if (!P)
        return play_new_game(g, res);
    res->plays = 0;
    if (load_position(g, P) < 0)
        return g->error;
    return play_on(g, P->to_move, P->plays_left, res);
}

PyDoc_STRVAR(random_games_doc,
"random_games(rules, n_games, seed, position=None)\n"
"-> (games, plays, wins0, wins1, draws, base_endings, count_endings)\n\n"
"Plays n_games uniformly random games (from the position when given), without the GIL.");

static PyObject *fp_random_games(PyObject *self, PyObject *args)
{
    PyObject *capsule, *seed_obj, *pos_obj = Py_None;
    Py_ssize_t n_games;
    if (!PyArg_ParseTuple(args, "OnO|O", &capsule, &n_games, &seed_obj, &pos_obj))
        return NULL;
    if (n_games < 0) {
        PyErr_SetString(PyExc_ValueError, "n_games must be >= 0");
        return NULL;
    }
    uint64_t seed;
    Position *P;
    Game *g;
    if (read_seed(seed_obj, &seed) < 0 || open_game(capsule, pos_obj, NULL, &P, &g) < 0)
        return NULL;
    long long plays = 0, wins[2] = {0, 0}, draws = 0, endings[2] = {0, 0};
    int err = OK;
    Py_BEGIN_ALLOW_THREADS
    rng_seed(&g->rng, seed);
    for (Py_ssize_t i = 0; i < n_games && err == OK; i++) {
        Result res;
        err = run_one(g, P, &res);
        if (err == OK) {
            plays += res.plays;
            if (res.winner < 0)
                draws++;
            else
                wins[res.winner]++;
            endings[res.reason]++;
        }
    }
    Py_END_ALLOW_THREADS
    close_game(g, P);
    if (err != OK)
        return raise_game_error(err);
    return Py_BuildValue("(nLLLLLL)", n_games, plays, wins[0], wins[1], draws, endings[0],
                         endings[1]);
}

static PyObject *trace_to_list(const Trace *t)
{
    PyObject *list = PyList_New((Py_ssize_t)t->n);
    if (!list)
        return NULL;
    for (size_t i = 0; i < t->n; i++) {
        PyObject *v = PyLong_FromLong(t->v[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

PyDoc_STRVAR(random_game_doc,
"random_game(rules, seed, position=None) -> (events, winner, reason, units0, units1, plays)\n\n"
"One random game with its events as flat ints (decoded by warboard.hill218.fast). It is the\n"
"first game of random_games(rules, n, seed, position). winner -1 = draw; reason 0 = base.");

static PyObject *fp_random_game(PyObject *self, PyObject *args)
{
    PyObject *capsule, *seed_obj, *pos_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O", &capsule, &seed_obj, &pos_obj))
        return NULL;
    uint64_t seed;
    Position *P;
    Game *g;
    if (read_seed(seed_obj, &seed) < 0 || open_game(capsule, pos_obj, NULL, &P, &g) < 0)
        return NULL;
    Trace trace = {NULL, 0, 0};
    Result res;
    g->trace = &trace;
    rng_seed(&g->rng, seed);
    int err = run_one(g, P, &res);
    close_game(g, P);
    PyObject *out = NULL;
    if (err != OK) {
        raise_game_error(err);
    } else {
        PyObject *events = trace_to_list(&trace);
        if (events)
            out = Py_BuildValue("(NiiiiL)", events, res.winner, res.reason, res.units[0],
                                res.units[1], res.plays);
    }
    PyMem_RawFree(trace.v);
    return out;
}

PyDoc_STRVAR(count_plays_doc,
"count_plays(rules, position) -> int\n\nThe number of distinct complete legal plays (§7).");

static PyObject *fp_count_plays(PyObject *self, PyObject *args)
{
    PyObject *capsule, *pos_obj;
    Position *P;
    Game *g;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &pos_obj)
            || open_game(capsule, pos_obj, "count_plays", &P, &g) < 0)
        return NULL;
    int64_t n = 0;
    if (load_position(g, P) == 0)
        n = count_plays(g, P->to_move, P->plays_left, NULL);
    int err = g->error;
    close_game(g, P);
    if (err != OK)
        return raise_game_error(err);
    return PyLong_FromLongLong(n);
}

PyDoc_STRVAR(sample_plays_doc,
"sample_plays(rules, position, n, seed) -> events\n\n"
"n independent uniformly random complete plays of the position (none applied), as flat ints.");

static PyObject *fp_sample_plays(PyObject *self, PyObject *args)
{
    PyObject *capsule, *pos_obj, *seed_obj;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOnO", &capsule, &pos_obj, &n, &seed_obj))
        return NULL;
    uint64_t seed;
    Position *P;
    Game *g;
    if (read_seed(seed_obj, &seed) < 0
            || open_game(capsule, pos_obj, "sample_plays", &P, &g) < 0)
        return NULL;
    Trace trace = {NULL, 0, 0};
    g->trace = &trace;
    rng_seed(&g->rng, seed);
    if (load_position(g, P) == 0) {
        for (Py_ssize_t i = 0; i < n && !g->error; i++) {
            Play p;
            if (!choose_play(g, P->to_move, P->plays_left, &p))
                break;          /* no legal play: an empty answer */
            emit_play(g, &p);
        }
    }
    int err = g->error;
    close_game(g, P);
    PyObject *out = err != OK ? raise_game_error(err) : trace_to_list(&trace);
    PyMem_RawFree(trace.v);
    return out;
}

PyDoc_STRVAR(rules_info_doc,
"rules_info(rules) -> (window side, reach per placement, reach per lookup)");

static PyObject *fp_rules_info(PyObject *self, PyObject *capsule)
{
    const Rules *R = get_rules(capsule);
    if (!R)
        return NULL;
    return Py_BuildValue("(iii)", R->w, R->reach_place, R->reach_look);
}

#include "_fastplay_vector.c"  /* batches of stepped games for warboard.hill218.vector */
#include "_fastsearch.c"        /* IS-MCTS with the hand-written evaluation, for the agents */

static PyMethodDef methods[] = {
    {"make_rules", fp_make_rules, METH_O, make_rules_doc},
    {"rules_info", fp_rules_info, METH_O, rules_info_doc},
    {"random_games", fp_random_games, METH_VARARGS, random_games_doc},
    {"random_game", fp_random_game, METH_VARARGS, random_game_doc},
    {"count_plays", fp_count_plays, METH_VARARGS, count_plays_doc},
    {"sample_plays", fp_sample_plays, METH_VARARGS, sample_plays_doc},
    {"batch_new", fp_batch_new, METH_VARARGS, batch_new_doc},
    {"batch_info", fp_batch_info, METH_O, batch_info_doc},
    {"batch_reset", fp_batch_reset, METH_VARARGS, batch_reset_doc},
    {"batch_step", fp_batch_step, METH_VARARGS, batch_step_doc},
    {"batch_trace", fp_batch_trace, METH_VARARGS, batch_trace_doc},
    {"search", fp_search, METH_VARARGS, search_doc},
    {"make_net", fp_make_net, METH_VARARGS, make_net_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_fastplay",
    "Uniformly random hill218/ogre218 games played in C (see warboard.hill218.fast).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__fastplay(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    WindowError = PyErr_NewExceptionWithDoc(
        "warboard.hill218._fastplay.WindowError",
        "A position whose units could leave the C side's board window (a ValueError).",
        PyExc_ValueError, NULL);
    if (!WindowError || PyModule_AddObjectRef(m, "WindowError", WindowError) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "EV_FIRST", EV_FIRST) < 0
            || PyModule_AddIntConstant(m, "EV_DRAW", EV_DRAW) < 0
            || PyModule_AddIntConstant(m, "EV_BURY", EV_BURY) < 0
            || PyModule_AddIntConstant(m, "EV_DEPLOY", EV_DEPLOY) < 0
            || PyModule_AddIntConstant(m, "EV_STRIKE", EV_STRIKE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
