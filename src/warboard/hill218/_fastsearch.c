/*
 * _fastsearch: the agents' IS-MCTS for hill218 / ogre218 in C, #included by _fastplay.c.
 *
 * The same search as warboard.ai.ismcts with the card games' hand-written knowledge
 * (warboard.hill218.knowledge) and no rollout (the hard and expert levels): each iteration
 * redeals the searching seat's unseen cards (the opponent's hand and deck, as
 * warboard.hill218.determinize does), walks a tree of plays shared by all deals with
 * progressive widening by the prior and UCT over availability, draws chance events as it passes
 * them (open loop), expands one node and scores it with the evaluation. At the root the prior is
 * the evaluation of each play's result; below it the cheap action prior. warboard.hill218.
 * native_search turns the root's statistics back into the engine's plays.
 *
 * The state is restored from a snapshot before each iteration: the Game struct is copied (the
 * board array stays, only its occupied cells are reset), and the scratch marks' generation and
 * the random numbers run on.
 */

#include <math.h>
#include <time.h>

#define SEARCH_MAX_NODES (1 << 20)  /* a tree never outgrows this: the search stops there */

/* Makes *buf (of *cap items of `size` bytes) hold at least `need`, doubling; -1 without
 * memory (*buf is then as it was). */
static int grow(void **buf, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *v = PyMem_RawRealloc(*buf, (size_t)c * size);
    if (!v)
        return -1;
    *buf = v;
    *cap = c;
    return 0;
}

/* ------------------------------------------------------------------ the evaluation */

/* evaluate_cards (warboard.hill218.knowledge) for `seat`, the game not over: material, strikes,
 * cards left, supply reach of the first unit type, and empty bases (worse when threatened). */
static double evaluate_for(Game *g, int seat)
{
    const Rules *R = g->R;
    double material[2] = {0, 0};
    for (int i = 0; i < g->nocc; i++) {
        int code = g->board[g->occ[i]];
        material[SEAT(code)] += R->counts_as[UID(code)];
    }
    int reserve[2], reach[2], threatens[2];
    for (int s = 0; s < 2; s++) {
        reserve[s] = deck_size(&g->deck[s]);
        for (int u = 0; u < R->n_units; u++)
            reserve[s] += g->hand[s][u];
        uint32_t gen;
        reach[s] = supply_cells(g, s, 0, g->cells, &gen);
        threatens[s] = g->mark[base_cell(R, 1 - s)] == gen;  /* the enemy base in reach */
    }
    int other = 1 - seat;
    double score = 1.0 * (material[seat] - material[other])
        + 0.8 * (g->strikes[seat] - g->strikes[other])
        + 0.25 * (reserve[seat] - reserve[other])
        + 0.08 * (reach[seat] - reach[other]);
    for (int s = 0; s < 2; s++) {
        if (!g->board[base_cell(R, s)]) {
            double sign = s == seat ? 1.0 : -1.0;
            score -= sign * (threatens[1 - s] ? 3.0 : 0.7);
        }
    }
    return tanh(score / 5.0);
}

/* The value for seat 0 of a finished game (+1 a win, -1 a loss, 0 a draw). */
static double final_value(const Game *g)
{
    return g->winner < 0 ? 0.0 : (g->winner == 0 ? 1.0 : -1.0);
}

/* ------------------------------------------------------------------ a policy-value model */

/* A trained model (warboard.ai.model.PolicyValueModel) for the master level: two ReLU layers
 * over CardEncoding's observation (written by _fastplay_vector.c's write_observation, divided by
 * the encoding's denominators), a softmax policy over action ids and a tanh value. */
typedef struct {
    Batch enc;                  /* only the encoding's fields (read_encoding) and R are used */
    PyObject *rules_capsule;    /* keeps enc.R alive */
    int h1, h2;
    float *den;                 /* obs_size: what each observation byte is divided by */
    float *w1, *b1, *w2, *b2;   /* w1: obs_size x h1, w2: h1 x h2, row-major */
    float *wp, *bp;             /* wp: num_actions x h2 (transposed: one row an action) */
    float *wv, bv;              /* wv: h2 */
    double value_weight;        /* the model's share of a leaf's value, the rest evaluate_cards' */
} Net;

#define NET_NAME "warboard.hill218._fastplay.Net"

/* Scratch of one search for the model. */
typedef struct {
    uint8_t *obs;
    float *h1, *h2, *logits;
    int *ids;
    int logits_cap, ids_cap;
} NetScratch;

/* The second hidden layer's activations for `seat`'s observation of the state in e. */
static void net_hidden(const Net *N, NetScratch *X, const Env *e, int seat)
{
    const Batch *B = &N->enc;
    write_observation(B, e, seat, X->obs);
    memcpy(X->h1, N->b1, (size_t)N->h1 * sizeof(float));
    for (size_t i = 0; i < B->obs_size; i++) {
        if (!X->obs[i])
            continue;
        float v = (float)X->obs[i] / N->den[i];
        const float *row = N->w1 + i * (size_t)N->h1;
        for (int j = 0; j < N->h1; j++)
            X->h1[j] += v * row[j];
    }
    memcpy(X->h2, N->b2, (size_t)N->h2 * sizeof(float));
    for (int i = 0; i < N->h1; i++) {
        float v = X->h1[i];
        if (v <= 0.0f)
            continue;           /* ReLU */
        const float *row = N->w2 + (size_t)i * (size_t)N->h2;
        for (int j = 0; j < N->h2; j++)
            X->h2[j] += v * row[j];
    }
    for (int j = 0; j < N->h2; j++) {
        if (X->h2[j] < 0.0f)
            X->h2[j] = 0.0f;
    }
}

/* The model's value for `seat`, who is to move in e. */
static double net_value(const Net *N, NetScratch *X, const Env *e, int seat)
{
    net_hidden(N, X, e, seat);
    float v = N->bv;
    for (int j = 0; j < N->h2; j++)
        v += X->h2[j] * N->wv[j];
    return tanh((double)v);
}

/* The action id of play p by `seat` (encoding.py), or -1 when it lies outside the window. */
static int play_id(const Net *N, int seat, const Play *p)
{
    const Batch *B = &N->enc;
    if (p->kind == EV_STRIKE) {
        int index = window_index(B, seat, p->cell);
        return index < 0 ? -1 : B->strike_base + index;
    }
    int index = window_index(B, seat, p->cell);
    if (index < 0)
        return -1;
    const Diagram *a = &B->R->attack[seat][p->uid];
    long value = 0;
    for (int h = 0; h < p->nhits; h++) {
        int k = 0;
        while (k < a->n && p->cell + a->off[k] != p->hits[h])
            k++;
        if (k == a->n)
            return -1;          /* not a hit of the diagram: cannot happen for a legal play */
        value = value * B->n_offsets[p->uid] + B->rank[p->uid][k];
    }
    return (int)(B->deploy_base[p->uid] + (long)index * B->n_slots[p->uid]
                 + B->slot_start[p->uid][p->nhits] + value);
}

/* ------------------------------------------------------------------ plays with their priors */

typedef struct {
    Play play;
    uint64_t key;
    float prior;
} Cand;

typedef struct {
    Cand *v;
    int n, cap;
    int failed;
} CandList;

static uint64_t play_key(const Play *p)
{
    uint64_t h = (uint64_t)p->kind * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(p->uid + 1);
    h = h * 0xBF58476D1CE4E5B9ULL ^ (uint64_t)p->cell;
    for (int i = 0; i < p->nhits; i++)
        h = h * 0x94D049BB133111EBULL ^ (uint64_t)p->hits[i];
    return h * 0xBF58476D1CE4E5B9ULL ^ (uint64_t)p->nhits;
}

static int plays_equal(const Play *a, const Play *b)
{
    if (a->kind != b->kind || a->uid != b->uid || a->cell != b->cell || a->nhits != b->nhits)
        return 0;
    for (int i = 0; i < a->nhits; i++) {
        if (a->hits[i] != b->hits[i])
            return 0;
    }
    return 1;
}

static void cand_add(CandList *L, const Play *p, float prior)
{
    if (grow((void **)&L->v, &L->cap, L->n + 1, sizeof *L->v) < 0) {
        L->failed = 1;
        return;
    }
    Cand *c = &L->v[L->n++];
    c->play = *p;
    c->key = play_key(p);
    c->prior = prior;
}

/* Every ordered hit sequence of the play p (as pick_sequence counts them), each added. */
static void add_sequences(CandList *L, Play *p, int left, int nt, const int *tgt, int *hp,
                          float bonus)
{
    int any = 0;
    if (left > 0) {
        for (int i = 0; i < nt; i++) {
            if (hp[i] <= 0)
                continue;
            any = 1;
            hp[i]--;
            p->hits[p->nhits++] = tgt[i];
            add_sequences(L, p, left - 1, nt, tgt, hp, bonus);
            p->nhits--;
            hp[i]++;
        }
    }
    if (!any)
        cand_add(L, p, (float)p->nhits + bonus);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Every complete legal play of `seat` with `plays_left` plays (§7), in the Python engine's order
 * (units in ruleset order, cells by (x, y), hit sequences, strikes last), with card_action_prior
 * (warboard.hill218.knowledge): 10 for taking the enemy base, a play's hits, +2 for refilling
 * the own base, 0.6 for a strike. */
static void list_plays(Game *g, int seat, int plays_left, CandList *L)
{
    const Rules *R = g->R;
    int own_base = base_cell(R, seat), enemy_base = base_cell(R, 1 - seat);
    L->n = 0;
    for (int uid = 0; uid < R->n_units; uid++) {
        if (g->hand[seat][uid] <= 0 || R->plays[uid] > plays_left)
            continue;
        int n = deploy_cells(g, seat, uid, g->cells);
        qsort(g->cells, (size_t)n, sizeof *g->cells, cmp_int);  /* index order is (x, y) order */
        for (int i = 0; i < n; i++) {
            Play p = {EV_DEPLOY, uid, g->cells[i], 0, {0}};
            if (p.cell == enemy_base) {
                cand_add(L, &p, 10.0f);
                continue;
            }
            int tgt[MAX_OFFS], hp[MAX_OFFS];
            int nt = targets_at(g, seat, uid, p.cell, tgt, hp);
            add_sequences(L, &p, nt ? R->attacks[uid] : 0, nt, tgt, hp,
                          p.cell == own_base ? 2.0f : 0.0f);
        }
    }
    if (g->strikes[seat] > 0) {
        int first = L->n;
        for (int i = 0; i < g->nocc; i++) {
            int c = g->occ[i];
            if (SEAT(g->board[c]) != seat) {
                Play p = {EV_STRIKE, -1, c, 0, {0}};
                cand_add(L, &p, 0.6f);
            }
        }
        /* by cell, as the engine lists them (occ[] has no order) */
        for (int i = first + 1; i < L->n; i++) {
            Cand c = L->v[i];
            int j = i;
            for (; j > first && L->v[j - 1].play.cell > c.play.cell; j--)
                L->v[j] = L->v[j - 1];
            L->v[j] = c;
        }
    }
}

/* A state of the search as the stepped games' Env, for write_observation: `seat` to move with
 * `plays_left`, in turn `turn` of a game that `first` began. */
static Env decision_env(Game *g, int seat, int plays_left, int first, int turn)
{
    Env e;
    memset(&e, 0, sizeof e);
    e.g = g;
    e.phase = PH_PLAY;
    e.seat = seat;
    e.plays_left = plays_left;
    e.first = first;
    e.turn = turn;
    return e;
}

/* The model's policy as the priors of L's plays (model_knowledge's play_priors): the softmax of
 * the logits of the plays with an id, 0 for a play outside the window. Returns -1 without
 * memory. */
static int model_priors(const Net *N, NetScratch *X, const Env *e, CandList *L)
{
    if (grow((void **)&X->logits, &X->logits_cap, L->n, sizeof *X->logits) < 0
            || grow((void **)&X->ids, &X->ids_cap, L->n, sizeof *X->ids) < 0)
        return -1;
    net_hidden(N, X, e, e->seat);
    float best = -INFINITY;
    for (int i = 0; i < L->n; i++) {
        int id = X->ids[i] = play_id(N, e->seat, &L->v[i].play);
        if (id < 0)
            continue;
        const float *row = N->wp + (size_t)id * (size_t)N->h2;
        float z = N->bp[id];
        for (int j = 0; j < N->h2; j++)
            z += X->h2[j] * row[j];
        X->logits[i] = z;
        if (z > best)
            best = z;
    }
    double sum = 0.0;
    for (int i = 0; i < L->n; i++) {
        if (X->ids[i] >= 0)
            sum += exp((double)(X->logits[i] - best));
    }
    for (int i = 0; i < L->n; i++) {
        L->v[i].prior = X->ids[i] < 0 ? 0.0f
            : (float)(exp((double)(X->logits[i] - best)) / sum);
    }
    return 0;
}

/* ------------------------------------------------------------------ the tree */

typedef struct {
    Play play;                  /* the play that led here */
    uint64_t key;
    int seat;                   /* the seat that chose it */
    int visits, avail;
    int first_child, next_sibling, nchildren;
    float prior;
    double value;
} SNode;

typedef struct {
    Game *g;
    Game snap;                  /* the root position (its board codes in snap_codes) */
    uint8_t snap_codes[MAX_OCC];
    int seat;                   /* the searching seat */
    double c, widening, prior_weight;
    SNode *nodes;
    int nnodes, cap;
    CandList cands, root;       /* root: the root's plays, best prior first */
    int include;                /* a root play always tried first (its index in root), or -1 */
    const Net *net;             /* the model (master), or NULL: the hand-written knowledge */
    NetScratch nx;
    int first, turn;            /* the game's first player, the root's turn (the model reads them) */
    int *order;                 /* scratch: candidate indices, best prior first */
    int order_cap;
    int *slot;                  /* scratch hash of one node's children: node index */
    uint32_t *slot_stamp, stamp;
    int slot_cap;
    int *path;
    int path_cap;
    int *deals;                 /* the opponent's hands to deal from (ndeals × n_units), or NULL */
    int ndeals;
    int failed;
} Search;

static int new_node(Search *S, const Cand *c, int seat)
{
    if (S->nnodes == S->cap) {
        if (S->cap >= SEARCH_MAX_NODES)
            return -1;
        int cap = S->cap ? S->cap * 2 : 4096;
        SNode *v = PyMem_RawRealloc(S->nodes, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        S->nodes = v;
        S->cap = cap;
    }
    int i = S->nnodes++;
    SNode *n = &S->nodes[i];
    memset(n, 0, sizeof *n);
    if (c) {
        n->play = c->play;
        n->key = c->key;
        n->prior = c->prior;
    }
    n->seat = seat;
    n->avail = 1;
    n->first_child = n->next_sibling = -1;
    return i;
}

/* The node's children in a scratch hash table by play key; returns the table's mask. */
static uint32_t index_children(Search *S, int node)
{
    int need = 16;
    while (need < 2 * S->nodes[node].nchildren + 2)
        need *= 2;
    if (need > S->slot_cap) {
        if (grow((void **)&S->slot, &S->slot_cap, need, sizeof *S->slot) < 0) {
            S->failed = 1;
            return 0;
        }
        PyMem_RawFree(S->slot_stamp);
        S->slot_stamp = PyMem_RawCalloc((size_t)S->slot_cap, sizeof *S->slot_stamp);
        if (!S->slot_stamp) {
            S->failed = 1;
            return 0;
        }
        S->stamp = 0;
    }
    if (++S->stamp == 0) {
        memset(S->slot_stamp, 0, (size_t)S->slot_cap * sizeof *S->slot_stamp);
        S->stamp = 1;
    }
    uint32_t mask = (uint32_t)need - 1;
    for (int ch = S->nodes[node].first_child; ch >= 0; ch = S->nodes[ch].next_sibling) {
        uint32_t h = (uint32_t)(S->nodes[ch].key >> 32) & mask;
        while (S->slot_stamp[h] == S->stamp)
            h = (h + 1) & mask;
        S->slot_stamp[h] = S->stamp;
        S->slot[h] = ch;
    }
    return mask;
}

static int find_child(const Search *S, uint32_t mask, const Cand *c)
{
    uint32_t h = (uint32_t)(c->key >> 32) & mask;
    while (S->slot_stamp[h] == S->stamp) {
        const SNode *n = &S->nodes[S->slot[h]];
        if (n->key == c->key && plays_equal(&n->play, &c->play))
            return S->slot[h];
        h = (h + 1) & mask;
    }
    return -1;
}

/* The first `width` candidates by prior, ties in list order, into S->order; returns how many. */
static int best_by_prior(Search *S, const CandList *L, int width)
{
    if (grow((void **)&S->order, &S->order_cap, width + 1, sizeof *S->order) < 0) {
        S->failed = 1;
        return 0;
    }
    int *top = S->order, k = 0;
    for (int i = 0; i < L->n; i++) {
        float p = L->v[i].prior;
        if (k == width && L->v[top[k - 1]].prior >= p)
            continue;
        int j = k < width ? k++ : k - 1;
        for (; j > 0 && L->v[top[j - 1]].prior < p; j--)
            top[j] = top[j - 1];
        top[j] = i;
    }
    return k;
}

/* ------------------------------------------------------------------ one iteration */

static void take_snapshot(Search *S)
{
    S->snap = *S->g;
    for (int i = 0; i < S->g->nocc; i++)
        S->snap_codes[i] = S->g->board[S->g->occ[i]];
}

static void restore_snapshot(Search *S)
{
    Game *g = S->g;
    uint32_t gen = g->gen;
    Rng rng = g->rng;
    for (int i = 0; i < g->nocc; i++)
        g->board[g->occ[i]] = 0;
    *g = S->snap;               /* the pointers are the same: the board array is g's own */
    g->gen = gen;               /* marks of later generations stay stale */
    g->rng = rng;
    for (int i = 0; i < g->nocc; i++)
        g->board[g->occ[i]] = S->snap_codes[i];
}

/* Deals the opponent's unseen cards anew: its hand and the shuffled part of its deck are one
 * pool of which its hand takes as many as it holds (determinize.sample_state). */
static void redeal(Game *g, int other)
{
    const Rules *R = g->R;
    int *hand = g->hand[other], *pool = g->deck[other].pool;
    int held = 0, total = 0;
    for (int u = 0; u < R->n_units; u++) {
        held += hand[u];
        pool[u] += hand[u];
        hand[u] = 0;
    }
    total = g->deck[other].pool_n + held;
    for (; held > 0; held--, total--) {
        int r = (int)rng_below(&g->rng, (uint32_t)total), u = 0;
        for (; r >= pool[u]; u++)
            r -= pool[u];
        pool[u]--;
        hand[u]++;
    }
}

/* Deals the opponent `hand` (one of the beliefs' deals, checked to be among its unseen cards),
 * the rest of its unseen cards to the shuffled part of its deck. */
static void deal_hand(Game *g, int other, const int *hand)
{
    int *held = g->hand[other], *pool = g->deck[other].pool;
    for (int u = 0; u < g->R->n_units; u++) {
        pool[u] += held[u] - hand[u];
        held[u] = hand[u];
    }
}

/* Ends the game by count when the cards are exhausted (§5); returns whether it did. */
static int end_by_count(Game *g)
{
    if (!cards_exhausted(g))
        return 0;
    int u0 = unit_count(g, 0), u1 = unit_count(g, 1);
    g->over = 1;
    g->winner = u0 == u1 ? -1 : (u0 > u1 ? 0 : 1);
    return 1;
}

/* `seat` made a play and has `plays_left`: where that ends its turn and the cards are exhausted
 * the game is over at once, as in the Python engine (the next seat's draw waits for the loop). */
static void settle_play(Game *g, int seat, int plays_left)
{
    if (!g->over && deck_size(&g->deck[0]) == 0 && deck_size(&g->deck[1]) == 0
            && (plays_left <= 0 || !has_play(g, seat, plays_left)))
        end_by_count(g);
}

/* Ends `*seat`'s turn as play_on does: the game ends by count, or the other seat draws 2. */
static void next_turn(Game *g, int *seat, int *plays_left, int *turn)
{
    if (end_by_count(g))
        return;
    (*turn)++;
    *seat = 1 - *seat;
    draw_cards(g, *seat, 2);
    *plays_left = 2;
}

static void iterate(Search *S, int plays_left)
{
    Game *g = S->g;
    restore_snapshot(S);
    if (S->ndeals)
        deal_hand(g, 1 - S->seat,
                  S->deals + g->R->n_units * (int)rng_below(&g->rng, (uint32_t)S->ndeals));
    else
        redeal(g, 1 - S->seat);
    int seat = S->seat, node = 0, depth = 0, turn = S->turn;
    S->path[depth++] = 0;
    while (!g->over && !g->error && !S->failed) {
        if (plays_left <= 0) {
            next_turn(g, &seat, &plays_left, &turn);
            continue;
        }
        const CandList *L = &S->root;
        if (node != 0) {
            list_plays(g, seat, plays_left, &S->cands);
            if (S->cands.failed) {
                S->failed = 1;
                return;
            }
            if (S->net && S->cands.n > 0) {
                Env e = decision_env(g, seat, plays_left, S->first, turn);
                if (model_priors(S->net, &S->nx, &e, &S->cands) < 0) {
                    S->failed = 1;
                    return;
                }
            }
            L = &S->cands;
        }
        if (L->n == 0) {        /* no legal play: the rest of the turn is forfeited */
            plays_left = 0;
            continue;
        }
        /* progressive widening: the best max(1, widening * sqrt(visits + 1)) plays by prior */
        double wide = S->widening * sqrt((double)S->nodes[node].visits + 1.0);
        int width = wide < 1.0 ? 1 : (wide >= (double)L->n ? L->n : (int)wide);
        int k;
        if (node == 0) {        /* the root's plays are listed best first */
            k = width;
        } else {
            k = best_by_prior(S, L, width);
        }
        uint32_t mask = index_children(S, node);
        if (S->failed)
            return;
        int expand = -1, best = -1;
        double best_score = -INFINITY;
        /* at the root the included play comes first, however low its prior */
        int first = node == 0 && S->include >= 0 ? -1 : 0;
        for (int i = first; i < k; i++) {
            int at = i < 0 ? S->include : (node == 0 ? i : S->order[i]);
            if (i >= 0 && node == 0 && at == S->include)
                continue;
            const Cand *c = &L->v[at];
            int ch = find_child(S, mask, c);
            if (ch < 0) {
                if (expand < 0)
                    expand = at;
                continue;
            }
            SNode *n = &S->nodes[ch];
            n->avail++;
            double score = n->value / n->visits
                + S->c * sqrt(log((double)n->avail) / n->visits)
                + S->prior_weight * n->prior / (n->visits + 1);
            if (score > best_score) {
                best_score = score;
                best = ch;
            }
        }
        const Play *chosen;
        if (expand >= 0) {
            int ch = new_node(S, &L->v[expand], seat);
            if (ch < 0) {
                S->failed = 1;
                return;
            }
            SNode *parent = &S->nodes[node];
            S->nodes[ch].next_sibling = parent->first_child;
            parent->first_child = ch;
            parent->nchildren++;
            node = ch;
        } else {
            node = best;
        }
        if (depth == S->path_cap && grow((void **)&S->path, &S->path_cap, depth + 1,
                                         sizeof *S->path) < 0) {
            S->failed = 1;
            return;
        }
        S->path[depth++] = node;
        chosen = &S->nodes[node].play;
        plays_left -= apply_play(g, seat, chosen);
        settle_play(g, seat, plays_left);
        if (expand >= 0)
            break;
    }
    if (g->error || S->failed)
        return;
    double v;
    if (S->net) {
        /* the model judges decision points (what it was trained on): on to the next one */
        while (!g->over && (plays_left <= 0 || !has_play(g, seat, plays_left)))
            next_turn(g, &seat, &plays_left, &turn);
        if (g->over) {
            v = final_value(g);
        } else {
            Env e = decision_env(g, seat, plays_left, S->first, turn);
            double mine = net_value(S->net, &S->nx, &e, seat);
            double w = S->net->value_weight;
            v = w * (seat == 0 ? mine : -mine) + (1.0 - w) * evaluate_for(g, 0);
        }
    } else {
        v = g->over ? final_value(g) : evaluate_for(g, 0);
    }
    for (int i = 0; i < depth; i++) {
        SNode *n = &S->nodes[S->path[i]];
        n->visits++;
        n->value += n->seat == 0 ? v : -v;
    }
}

/* The root's plays, each prior the evaluation of its result for the searching seat, sorted best
 * first (ties in list order). */
static void list_root(Search *S, int plays_left, const Play *include)
{
    Game *g = S->g;
    list_plays(g, S->seat, plays_left, &S->root);
    if (S->root.failed) {
        S->failed = 1;
        return;
    }
    uint64_t include_key = include ? play_key(include) : 0;
    if (S->net) {
        Env e = decision_env(g, S->seat, plays_left, S->first, S->turn);
        if (S->root.n > 0 && model_priors(S->net, &S->nx, &e, &S->root) < 0) {
            S->failed = 1;
            return;
        }
    }
    for (int i = 0; !S->net && i < S->root.n; i++) {
        restore_snapshot(S);
        settle_play(g, S->seat, plays_left - apply_play(g, S->seat, &S->root.v[i].play));
        double v = g->over ? final_value(g) : evaluate_for(g, 0);
        S->root.v[i].prior = (float)(S->seat == 0 ? v : -v);
    }
    restore_snapshot(S);
    for (int i = 1; i < S->root.n; i++) {  /* a stable insertion sort, best prior first */
        Cand c = S->root.v[i];
        int j = i;
        for (; j > 0 && S->root.v[j - 1].prior < c.prior; j--)
            S->root.v[j] = S->root.v[j - 1];
        S->root.v[j] = c;
    }
    S->include = -1;
    for (int i = 0; include && i < S->root.n; i++) {
        if (S->root.v[i].key == include_key && plays_equal(&S->root.v[i].play, include))
            S->include = i;
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void search_free(Search *S)
{
    PyMem_RawFree(S->nx.obs);
    PyMem_RawFree(S->nx.h1);
    PyMem_RawFree(S->nx.h2);
    PyMem_RawFree(S->nx.logits);
    PyMem_RawFree(S->nx.ids);
    PyMem_RawFree(S->nodes);
    PyMem_RawFree(S->cands.v);
    PyMem_RawFree(S->root.v);
    PyMem_RawFree(S->order);
    PyMem_RawFree(S->slot);
    PyMem_RawFree(S->slot_stamp);
    PyMem_RawFree(S->path);
    PyMem_RawFree(S->deals);
}

/* Searches from the loaded position (the seat to move is the searcher) until `iterations` are
 * done or `seconds` have passed (<= 0: no limit); at least one iteration. Returns how many. */
static long run_search(Search *S, int plays_left, long iterations, double seconds,
                       const Play *include)
{
    double deadline = seconds > 0 ? now_seconds() + seconds : 0;
    take_snapshot(S);
    if (grow((void **)&S->path, &S->path_cap, 64, sizeof *S->path) < 0
            || new_node(S, NULL, 1 - S->seat) < 0) {
        S->failed = 1;
        return 0;
    }
    list_root(S, plays_left, include);
    if (include && S->include < 0)
        return 0;               /* not a legal play: the caller says so */
    long done = 0;
    while (!S->failed && !S->g->error && S->root.n > 0
           && (done == 0 || ((iterations <= 0 || done < iterations)
                             && (deadline == 0 || now_seconds() < deadline)))) {
        iterate(S, plays_left);
        done++;
        if (S->nnodes >= SEARCH_MAX_NODES)
            break;              /* the tree is full: the budget is spent */
    }
    return done;
}

/* A play given as (uid, x, y, hits): uid -1 is a strike on (x, y); hits, cells (x, y). */
static int read_include(PyObject *obj, const Rules *R, Play *p)
{
    PyObject *hits;
    int x, y;
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "search: include must be a tuple (uid, x, y, hits)");
        return -1;
    }
    if (!PyArg_ParseTuple(obj, "iiiO", &p->uid, &x, &y, &hits))
        return -1;
    PyObject *fast = PySequence_Fast(hits, "search: include's hits must be a sequence");
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int lim = R->half - 1, ok = p->uid >= -1 && p->uid < R->n_units && n <= MAX_ATTACKS
        && iabs(x) <= lim && iabs(y) <= lim && (p->uid >= 0 || n == 0);
    p->kind = p->uid < 0 ? EV_STRIKE : EV_DEPLOY;
    p->cell = cell_at(R, x, y);
    p->nhits = (int)n;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        int hx, hy;
        PyObject *hit_obj = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyTuple_Check(hit_obj)) {
            PyErr_SetString(PyExc_TypeError, "search: each hit must be a tuple (x, y)");
            Py_DECREF(fast);
            return -1;
        }
        if (!PyArg_ParseTuple(hit_obj, "ii", &hx, &hy)) {
            Py_DECREF(fast);
            return -1;
        }
        ok = iabs(hx) <= lim && iabs(hy) <= lim;
        p->hits[i] = cell_at(R, hx, hy);
    }
    Py_DECREF(fast);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "search: include is not a play of this ruleset");
        return -1;
    }
    return 0;
}

/* What the model reads beyond a position: (turn, first player, destroyed[0][n_units],
 * destroyed[1][n_units]), as one sequence of ints. */
static int read_extra(PyObject *obj, const Rules *R, int *first, int *turn,
                      int destroyed[2][MAX_UNITS])
{
    Reader rd;
    if (obj == Py_None) {
        PyErr_SetString(PyExc_TypeError, "search: a model needs the extra facts it reads");
        return -1;
    }
    if (reader_open(&rd, obj, "extra") < 0)
        return -1;
    int rc = next_int(&rd, 0, MAX_TURNS, turn) < 0 || next_int(&rd, 0, 1, first) < 0 ? -1 : 0;
    for (int s = 0; rc == 0 && s < 2; s++) {
        for (int u = 0; rc == 0 && u < R->n_units; u++)
            rc = next_int(&rd, 0, MAX_DECK, &destroyed[s][u]);
    }
    if (rc == 0)
        rc = reader_finish(&rd);
    reader_close(&rd);
    return rc < 0 ? -1 : 0;
}

/* The beliefs' deals: the opponent's hands one after the other, n_units counts each. Each must
 * hold as many cards as the opponent's hand and only cards it has not shown (hand or deck
 * pool of the position read into `g`). */
static int read_deals(PyObject *obj, const Game *g, int other, Search *S)
{
    const Rules *R = g->R;
    Reader rd;
    if (reader_open(&rd, obj, "deals") < 0)
        return -1;
    int rc = 0;
    if (rd.n == 0 || rd.n % R->n_units != 0) {
        PyErr_SetString(PyExc_ValueError, "deals: must list whole hands, one count per unit");
        rc = -1;
    }
    int held = 0;
    for (int u = 0; u < R->n_units; u++)
        held += g->hand[other][u];
    if (rc == 0) {
        S->ndeals = (int)(rd.n / R->n_units);
        S->deals = PyMem_RawMalloc(rd.n * sizeof(int));
        if (!S->deals) {
            PyErr_NoMemory();
            rc = -1;
        }
    }
    for (int k = 0; rc == 0 && k < S->ndeals; k++) {
        int *hand = S->deals + k * R->n_units, total = 0;
        for (int u = 0; rc == 0 && u < R->n_units; u++) {
            rc = next_int(&rd, 0, g->hand[other][u] + g->deck[other].pool[u], &hand[u]);
            total += hand[u];
        }
        if (rc == 0 && total != held) {
            PyErr_Format(PyExc_ValueError, "deals: hand %d holds %d cards, not %d", k, total,
                         held);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = reader_finish(&rd);
    reader_close(&rd);
    return rc;
}

static void net_destroy(PyObject *capsule)
{
    Net *N = PyCapsule_GetPointer(capsule, NET_NAME);
    if (N) {
        Py_XDECREF(N->rules_capsule);
        PyMem_Free(N->den);
        PyMem_Free(N->w1);
        PyMem_Free(N->b1);
        PyMem_Free(N->w2);
        PyMem_Free(N->b2);
        PyMem_Free(N->wp);
        PyMem_Free(N->bp);
        PyMem_Free(N->wv);
        PyMem_Free(N);
    }
}

/* A copy of `n` float32s from a bytes-like object, or NULL with an error set. */
static float *read_floats(PyObject *obj, size_t n, const char *what)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    float *out = NULL;
    if ((size_t)view.len != n * sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "make_net: %s holds %zd bytes, not %zu", what, view.len,
                     n * sizeof(float));
    } else if ((out = PyMem_Malloc(n * sizeof(float))) == NULL) {
        PyErr_NoMemory();
    } else {
        memcpy(out, view.buf, n * sizeof(float));
    }
    PyBuffer_Release(&view);
    return out;
}

PyDoc_STRVAR(make_net_doc,
"make_net(rules, encoding, denominators, h1, h2, w1, b1, w2, b2, wp_t, bp, wv, bv, value_weight)\n"
"-> capsule\n\n"
"A policy-value model for search(): the encoding's layout (as batch_new reads it), the\n"
"observation's denominators (float32 bytes, one per observation value), the layers as float32\n"
"bytes (wp_t: the policy layer transposed, one row an action id), bv a float, and the model's\n"
"share of a leaf's value.");

static PyObject *fp_make_net(PyObject *self, PyObject *args)
{
    PyObject *capsule, *layout, *den, *w1, *b1, *w2, *b2, *wp, *bp, *wv;
    int h1, h2;
    double bv, value_weight;
    if (!PyArg_ParseTuple(args, "OOOiiOOOOOOOdd", &capsule, &layout, &den, &h1, &h2, &w1, &b1,
                          &w2, &b2, &wp, &bp, &wv, &bv, &value_weight))
        return NULL;
    const Rules *R = get_rules(capsule);
    if (!R)
        return NULL;
    if (h1 < 1 || h2 < 1 || h1 > 4096 || h2 > 4096 || value_weight < 0 || value_weight > 1) {
        PyErr_SetString(PyExc_ValueError, "make_net: bad layer sizes or value weight");
        return NULL;
    }
    Net *N = PyMem_Calloc(1, sizeof(Net));
    if (!N)
        return PyErr_NoMemory();
    PyObject *out = PyCapsule_New(N, NET_NAME, net_destroy);
    if (!out) {
        PyMem_Free(N);
        return NULL;
    }
    N->enc.R = R;
    N->rules_capsule = Py_NewRef(capsule);
    N->h1 = h1;
    N->h2 = h2;
    N->bv = (float)bv;
    N->value_weight = value_weight;
    Reader rd;
    if (reader_open(&rd, layout, "encoding") < 0)
        goto fail;
    int rc = read_encoding(&rd, &N->enc);
    reader_close(&rd);
    if (rc < 0)
        goto fail;
    size_t obs = N->enc.obs_size, actions = (size_t)N->enc.num_actions;
    if (!(N->den = read_floats(den, obs, "denominators"))
            || !(N->w1 = read_floats(w1, obs * (size_t)h1, "w1"))
            || !(N->b1 = read_floats(b1, (size_t)h1, "b1"))
            || !(N->w2 = read_floats(w2, (size_t)h1 * (size_t)h2, "w2"))
            || !(N->b2 = read_floats(b2, (size_t)h2, "b2"))
            || !(N->wp = read_floats(wp, actions * (size_t)h2, "wp_t"))
            || !(N->bp = read_floats(bp, actions, "bp"))
            || !(N->wv = read_floats(wv, (size_t)h2, "wv")))
        goto fail;
    for (size_t i = 0; i < obs; i++) {
        if (!(N->den[i] > 0.0f)) {
            PyErr_SetString(PyExc_ValueError, "make_net: a denominator is not positive");
            goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyDoc_STRVAR(search_doc,
"search(rules, position, iterations, seconds, exploration, widening, prior_weight, seed,\n"
"       include=None)\n"
"-> (iterations_done, [(kind, uid, x, y, hits, visits, mean_value, prior), ...])\n\n"
"IS-MCTS for the seat to move of the position (a determinization of its view: the other\n"
"seat's hand and deck pool are redealt every iteration), without the GIL. iterations <= 0 or\n"
"seconds <= 0: no such limit (one of them must limit). Each root play tried: its kind (EV_DEPLOY\n"
"or EV_STRIKE), unit id (-1 for a strike), cell, hits as a tuple of cells, visits, mean value\n"
"for the searching seat and prior (the evaluation of its result). include, a root play as\n"
"(uid, x, y, hits) (uid -1: a strike), is always tried first, however low its prior. net, a\n"
"make_net() model, gives the priors (its policy) and a share of the leaves' values (judged at\n"
"the next decision point); extra is then (turn, first player, destroyed[0], destroyed[1]).\n"
"deals, the opponent's hands as one list of n_units counts each (beliefs), deals each\n"
"iteration one of them, drawn uniformly, and the rest of its unseen cards to its deck.");

static PyObject *fp_search(PyObject *self, PyObject *args)
{
    PyObject *capsule, *pos_obj, *seed_obj, *include_obj = Py_None, *net_obj = Py_None;
    PyObject *extra_obj = Py_None, *deals_obj = Py_None;
    long iterations;
    double seconds, exploration, widening, prior_weight;
    if (!PyArg_ParseTuple(args, "OOlddddO|OOOO", &capsule, &pos_obj, &iterations, &seconds,
                          &exploration, &widening, &prior_weight, &seed_obj, &include_obj,
                          &net_obj, &extra_obj, &deals_obj))
        return NULL;
    if (iterations <= 0 && seconds <= 0) {
        PyErr_SetString(PyExc_ValueError, "search needs a budget: iterations or seconds");
        return NULL;
    }
    const Rules *R = get_rules(capsule);
    if (!R)
        return NULL;
    uint64_t seed;
    if (read_seed(seed_obj, &seed) < 0)
        return NULL;
    Play include = {0, 0, 0, 0, {0}};
    if (include_obj != Py_None && read_include(include_obj, R, &include) < 0)
        return NULL;
    const Net *net = NULL;
    int first = 0, turn = 0, destroyed[2][MAX_UNITS];
    if (net_obj != Py_None) {
        net = PyCapsule_GetPointer(net_obj, NET_NAME);
        if (!net || read_extra(extra_obj, R, &first, &turn, destroyed) < 0)
            return NULL;
        if (net->enc.R != R) {
            PyErr_SetString(PyExc_ValueError, "search: the model was made for other rules");
            return NULL;
        }
    }
    Position *P;
    Game *g;
    if (open_game(capsule, pos_obj, "search", &P, &g) < 0)
        return NULL;
    Search *S = PyMem_RawCalloc(1, sizeof *S);
    if (!S) {
        close_game(g, P);
        return PyErr_NoMemory();
    }
    rng_seed(&g->rng, seed);
    g->winner = -1;
    S->g = g;
    S->seat = P->to_move;
    S->c = exploration;
    S->widening = widening;
    S->prior_weight = prior_weight;
    S->include = -1;
    if (net) {
        S->net = net;
        S->first = first;
        S->turn = turn;
        S->nx.obs = PyMem_RawMalloc(net->enc.obs_size);
        S->nx.h1 = PyMem_RawMalloc((size_t)net->h1 * sizeof(float));
        S->nx.h2 = PyMem_RawMalloc((size_t)net->h2 * sizeof(float));
        if (!S->nx.obs || !S->nx.h1 || !S->nx.h2)
            S->failed = 1;
    }
    long done = 0;
    int dealt = 0;              /* -1: the deals are refused (the error is set) */
    if (!S->failed && load_position(g, P) == 0
            && (deals_obj == Py_None
                || (dealt = read_deals(deals_obj, g, 1 - P->to_move, S)) == 0)) {
        if (net)
            memcpy(g->destroyed, destroyed, sizeof g->destroyed);
        Py_BEGIN_ALLOW_THREADS
        done = run_search(S, P->plays_left, iterations, seconds,
                          include_obj != Py_None ? &include : NULL);
        Py_END_ALLOW_THREADS
    }
    PyMem_Free(P);
    PyObject *out = NULL;
    if (dealt < 0) {
        /* read_deals set the error */
    } else if (g->error != OK) {
        raise_game_error(g->error);
    } else if (include_obj != Py_None && S->include < 0 && !S->failed) {
        PyErr_SetString(PyExc_ValueError, "search: the included play is not legal here");
    } else if (S->failed) {
        PyErr_NoMemory();
    } else {
        PyObject *plays = PyList_New(0);
        for (int ch = S->nnodes ? S->nodes[0].first_child : -1; plays && ch >= 0;
             ch = S->nodes[ch].next_sibling) {
            const SNode *n = &S->nodes[ch];
            PyObject *hits = PyTuple_New(n->play.nhits);
            for (int h = 0; hits && h < n->play.nhits; h++) {
                PyObject *cell = Py_BuildValue("(ii)", cell_x(R, n->play.hits[h]),
                                               cell_y(R, n->play.hits[h]));
                if (!cell)
                    Py_CLEAR(hits);
                else
                    PyTuple_SET_ITEM(hits, h, cell);
            }
            PyObject *item = hits ? Py_BuildValue(
                "(iiiiNidd)", n->play.kind, n->play.uid, cell_x(R, n->play.cell),
                cell_y(R, n->play.cell), hits, n->visits, n->value / (n->visits ? n->visits : 1),
                (double)n->prior) : NULL;
            if (!item || PyList_Append(plays, item) < 0)
                Py_CLEAR(plays);
            Py_XDECREF(item);
        }
        if (plays)
            out = Py_BuildValue("(lN)", done, plays);
    }
    search_free(S);
    PyMem_RawFree(S);
    game_free(g);
    return out;
}
