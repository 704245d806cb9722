"""The library's search functions, as each schema version creates them (``schema`` runs
them in its migrations).

Search runs in SECURITY DEFINER functions, which check the member's groups themselves:
under row-level security PostgreSQL may not use an index for an operator that is not
LEAKPROOF (full-text ``@@``, pgvector's distances), so a member's query would scan every
row. Each returns only rows of a group the member is granted.
"""

from __future__ import annotations

from vaultd.lab.names import MEMBER_ROLE, SCHEMA

# The full-text search functions' filters (their arguments $7-$12), appended to the query
# a plpgsql function builds.
_CHUNK_FILTERS = """\
            || CASE WHEN p_year_min IS NULL THEN '' ELSE ' AND c.year >= $7' END
            || CASE WHEN p_year_max IS NULL THEN '' ELSE ' AND c.year <= $8' END
            || CASE WHEN p_chunk_type IS NULL THEN '' ELSE ' AND c.chunk_type = $9' END
            || CASE WHEN p_kind IS NULL THEN '' ELSE ' AND c.kind = $10' END
            || CASE WHEN p_author IS NULL THEN '' ELSE ' AND c.work_id IN (SELECT w.id FROM
                 works w WHERE w.grp = $1 AND strpos(lower(w.authors), lower($11)) > 0)' END
            || CASE WHEN p_cite_key IS NULL THEN '' ELSE ' AND c.work_id IN (SELECT p.work_id
                 FROM publications p WHERE p.grp = $1 AND (p.cite_key = $12
                 OR $12 = ANY (p.aliases)))' END
"""


def _idf_sum(title_extra: str) -> str:
    """plpgsql building ``score``: the IDF of each query term a passage holds, plus
    ``title_extra`` × it when the title holds it, as one flat sum (a subquery per row
    would cost more than the match)."""
    return f"""\
          FOR i IN 1 .. coalesce(array_length(p_terms, 1), 0) LOOP
            score := score || format(
              ' + %s * ((c.tsv @@ %L::tsquery)::int + %s * (c.tsv @@ %L::tsquery)::int)',
              p_weights[i], p_terms[i]::text, {title_extra}, p_titled[i]::text);
          END LOOP;
"""


SEARCH_V1 = [
    # rows holding each term, counted up to p_cap (a count visits every row it counts)
    f"""CREATE FUNCTION {SCHEMA}.term_counts(p_grp text, p_terms tsquery[], p_cap bigint)
        RETURNS bigint[]
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {SCHEMA}, pg_catalog, pg_temp AS
        $$ SELECT array_agg((SELECT count(*) FROM (SELECT 1 FROM chunks c WHERE c.grp = p_grp
                               AND c.tsv @@ u.t LIMIT p_cap) x) ORDER BY u.i)
           FROM unnest(p_terms) WITH ORDINALITY AS u(t, i)
           WHERE p_grp = ANY (my_groups()) $$""",
    f"""CREATE FUNCTION {SCHEMA}.text_search(
            p_grp text, p_candidates tsquery, p_terms tsquery[], p_titled tsquery[],
            p_weights float8[], p_title_weight float8, p_year_min int, p_year_max int,
            p_chunk_type text, p_kind text, p_author text, p_cite_key text, p_k int)
        RETURNS TABLE (id bigint, score float8)
        LANGUAGE plpgsql STABLE SECURITY DEFINER
        SET search_path = {SCHEMA}, pg_catalog, pg_temp AS $f$
        DECLARE
          score text := '0';
        BEGIN
          IF NOT (p_grp = ANY (my_groups())) THEN RETURN; END IF;
{_idf_sum("p_title_weight")}          RETURN QUERY EXECUTE
            'SELECT c.id, (' || score || ')::float8 AS s
             FROM chunks c WHERE c.tsv @@ $2 AND c.grp = $1'
{_CHUNK_FILTERS}            || ' ORDER BY s DESC, c.id LIMIT $13'
          USING p_grp, p_candidates, p_terms, p_titled, p_weights, p_title_weight,
                p_year_min, p_year_max, p_chunk_type, p_kind, p_author, p_cite_key, p_k;
        END $f$""",
    f"""CREATE FUNCTION {SCHEMA}.vector_search(
            p_grp text, p_model text, p_dim int, p_query halfvec, p_year_min int,
            p_year_max int, p_chunk_type text, p_kind text, p_author text, p_cite_key text,
            p_k int)
        RETURNS TABLE (id bigint, distance float8)
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER
        SET search_path = {SCHEMA}, public, pg_catalog, pg_temp AS $f$
        DECLARE
          filters text;
        BEGIN
          IF NOT (p_grp = ANY (my_groups())) OR coalesce(p_kind, 'paper') <> 'paper' THEN
            RETURN;
          END IF;
          -- keep scanning the index until k rows pass the filters (pgvector >= 0.8)
          PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);
          PERFORM set_config('hnsw.ef_search', greatest(p_k, 100)::text, true);
          filters := ''
            || CASE WHEN p_year_min IS NULL THEN '' ELSE ' AND e.year >= $3' END
            || CASE WHEN p_year_max IS NULL THEN '' ELSE ' AND e.year <= $4' END
            || CASE WHEN p_chunk_type IS NULL THEN '' ELSE ' AND e.chunk_type = $5' END
            || CASE WHEN p_author IS NULL THEN '' ELSE ' AND e.chunk IN (SELECT c.id FROM
                 chunks c JOIN works w ON w.id = c.work_id WHERE w.grp = $2
                 AND strpos(lower(w.authors), lower($6)) > 0)' END
            || CASE WHEN p_cite_key IS NULL THEN '' ELSE ' AND e.chunk IN (SELECT c.id FROM
                 chunks c JOIN publications p ON p.work_id = c.work_id WHERE p.grp = $2
                 AND (p.cite_key = $7 OR $7 = ANY (p.aliases)))' END;
          -- the HNSW index over the indexed vectors, an exact scan of those not yet indexed
          RETURN QUERY EXECUTE format(
            'WITH nearest AS MATERIALIZED (
               SELECT e.chunk, e.vec::halfvec(%1$s) <=> $1::halfvec(%1$s) AS d
               FROM embeddings e WHERE e.model = %2$L AND e.grp = $2 %3$s
               ORDER BY d LIMIT $8),
             recent AS MATERIALIZED (
               SELECT e.chunk, e.vec::halfvec(%1$s) <=> $1::halfvec(%1$s) AS d
               FROM embeddings_new e WHERE e.model = %2$L AND e.grp = $2 %3$s
               ORDER BY d LIMIT $8)
             SELECT chunk, d::float8 FROM (SELECT * FROM nearest UNION ALL
                                           SELECT * FROM recent) both_
             ORDER BY d, chunk LIMIT $8', p_dim, p_model, filters)
          USING p_query, p_grp, p_year_min, p_year_max, p_chunk_type, p_author, p_cite_key,
                p_k;
        END $f$""",
    # every candidate scored on both sides before fusing (as the local index does): the
    # full-text score of passages the vectors found, the cosine distance of those the
    # words found
    f"""CREATE FUNCTION {SCHEMA}.text_scores(
            p_grp text, p_ids bigint[], p_terms tsquery[], p_titled tsquery[],
            p_weights float8[], p_title_weight float8)
        RETURNS TABLE (id bigint, score float8)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {SCHEMA}, pg_catalog, pg_temp AS
        $$ SELECT c.id, (SELECT sum(u.w * ((c.tsv @@ u.t)::int
                                          + p_title_weight * (c.tsv @@ u.a)::int))
                         FROM unnest(p_terms, p_titled, p_weights) AS u(t, a, w))::float8
           FROM chunks c WHERE c.id = ANY (p_ids) AND c.grp = p_grp
             AND p_grp = ANY (my_groups()) $$""",
    f"""CREATE FUNCTION {SCHEMA}.vector_scores(
            p_grp text, p_model text, p_query halfvec, p_ids bigint[])
        RETURNS TABLE (id bigint, distance float8)
        LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = {SCHEMA}, public, pg_catalog, pg_temp AS
        $$ SELECT e.chunk, (e.vec <=> p_query)::float8 FROM (
             SELECT chunk, vec FROM embeddings WHERE chunk = ANY (p_ids) AND model = p_model
               AND grp = p_grp
             UNION ALL
             SELECT chunk, vec FROM embeddings_new WHERE chunk = ANY (p_ids)
               AND model = p_model AND grp = p_grp) e
           WHERE p_grp = ANY (my_groups()) $$""",
    # The planner's statistics of the chunks' lexemes (the commonest, with the fraction of
    # passages holding each): what search weighs terms by. PostgreSQL hides pg_stats of a
    # table with row-level security from its users; this shows the lexeme frequencies only
    # (never text), over every group.
    f"""CREATE FUNCTION {SCHEMA}.lexeme_stats() RETURNS TABLE (lexeme text, freq real)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {SCHEMA}, pg_temp AS
        $$ SELECT e, f FROM pg_stats s,
             unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(e, f)
           WHERE s.schemaname = '{SCHEMA}' AND s.tablename = 'chunks' AND s.attname = 'tsv' $$""",
]

# Version 2: full text scored by BM25 (as the local index's FTS5 scores it), not by the
# IDF of the terms a passage holds. The candidates the GIN index matches are first ordered
# by that cheap sum (as version 1 ranked them), and the best ``p_pool`` of them are then
# scored by ``bm25_scores``: term frequency saturated by k1 = 1.2 and normalised by the
# passage's length against the library's average with b = 0.75 (FTS5's defaults); a title
# occurrence (weight A in ``tsv``) counts ``p_title`` times. Length: the passage's distinct
# lexemes (``length(tsv)``, stored in the tsvector's header; the token count would need a
# second pass over the positions and scored SciFact no better).
SEARCH_V2 = [
    f"DROP FUNCTION {SCHEMA}.text_search(text, tsquery, tsquery[], tsquery[], float8[], "
    "float8, int, int, text, text, text, text, int)",
    f"DROP FUNCTION {SCHEMA}.text_scores(text, bigint[], tsquery[], tsquery[], float8[], "
    "float8)",
    # one pass over each passage's lexemes (a join, not a function call per passage: the
    # call would cost twice as much)
    f"""CREATE FUNCTION {SCHEMA}.bm25_scores(p_ids bigint[], p_lexemes text[], p_idf float8[],
            p_title float8, p_avgdl float8) RETURNS TABLE (id bigint, score float8)
        LANGUAGE sql STABLE SET search_path = {SCHEMA}, pg_catalog, pg_temp AS
        $$ SELECT c.id, sum(q.idf * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75
                    * length(c.tsv) / greatest(p_avgdl, 1))))::float8
           FROM chunks c
           CROSS JOIN LATERAL (
             SELECT u.lexeme, (cardinality(u.positions) + (p_title - 1)
                               * cardinality(array_positions(u.weights, 'A')))::float8 AS tf
             FROM unnest(c.tsv) AS u) t
           JOIN unnest(p_lexemes, p_idf) AS q(lexeme, idf) ON q.lexeme = t.lexeme
           WHERE c.id = ANY (p_ids)
           GROUP BY c.id $$""",
    f"""CREATE FUNCTION {SCHEMA}.text_search(
            p_grp text, p_candidates tsquery, p_terms tsquery[], p_titled tsquery[],
            p_lexemes text[], p_weights float8[], p_title float8, p_avgdl float8,
            p_year_min int, p_year_max int, p_chunk_type text, p_kind text, p_author text,
            p_cite_key text, p_pool int, p_k int)
        RETURNS TABLE (id bigint, score float8)
        LANGUAGE plpgsql STABLE SECURITY DEFINER
        SET search_path = {SCHEMA}, pg_catalog, pg_temp AS $f$
        DECLARE
          score text := '0';
        BEGIN
          IF NOT (p_grp = ANY (my_groups())) THEN RETURN; END IF;
{_idf_sum("p_title - 1")}          RETURN QUERY EXECUTE
            'SELECT b.id, b.score FROM bm25_scores(ARRAY(
               SELECT c.id FROM chunks c WHERE c.tsv @@ $2 AND c.grp = $1'
{_CHUNK_FILTERS}            || ' ORDER BY (' || score || ') DESC, c.id LIMIT $13), $3, $4, $5, $6) b
               ORDER BY b.score DESC, b.id LIMIT $14'
          USING p_grp, p_candidates, p_lexemes, p_weights, p_title, p_avgdl,
                p_year_min, p_year_max, p_chunk_type, p_kind, p_author, p_cite_key,
                p_pool, p_k;
        END $f$""",
    f"""CREATE FUNCTION {SCHEMA}.text_scores(
            p_grp text, p_ids bigint[], p_lexemes text[], p_weights float8[],
            p_title float8, p_avgdl float8)
        RETURNS TABLE (id bigint, score float8)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {SCHEMA}, pg_catalog, pg_temp AS
        $$ SELECT b.id, b.score FROM bm25_scores(ARRAY(
             SELECT c.id FROM chunks c WHERE c.id = ANY (p_ids) AND c.grp = p_grp
               AND p_grp = ANY (my_groups())), p_lexemes, p_weights, p_title, p_avgdl) b $$""",
    # the passages' average length (distinct lexemes) for BM25, over about 20,000 of them
    f"""CREATE FUNCTION {SCHEMA}.text_stats() RETURNS float8
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = {SCHEMA}, pg_catalog, pg_temp
        AS $f$
        DECLARE
          n float8;
        BEGIN
          SELECT greatest(reltuples, 0) INTO n FROM pg_class
           WHERE oid = '{SCHEMA}.chunks'::regclass;
          IF n < 40000 THEN RETURN (SELECT avg(length(tsv)) FROM chunks); END IF;
          RETURN (SELECT avg(length(tsv)) FROM chunks TABLESAMPLE SYSTEM (2000000 / n));
        END $f$""",
    f"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA {SCHEMA} FROM PUBLIC",
    f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {SCHEMA} TO {MEMBER_ROLE}",
]
