/**
 * What a query of the SQL runner may call (decision 0061): functions, operators, casts and SQL
 * value keywords, each chosen because it only computes over its arguments. Nothing that reads
 * files or settings, sleeps, changes state, takes locks, runs SQL of its own (`query_to_xml`),
 * makes rows from nothing (`generate_series`) or from a value (`unnest`, `jsonb_array_elements`,
 * `jsonb_each_text`, `jsonb_object_keys`: the planner guesses 10 rows a call, so `unnest` of an
 * `array_agg` of a whole view, cross joined thrice, plans at cost ~90 for 1.7e9 rows of 1,200)
 * or builds values of arbitrary size from a small input (`repeat`, `lpad`) is listed: the first
 * group are escapes, the others beat the planner's cost cap, which counts rows the planner
 * knows of, not the work of a function. Functions that grow a value from values of the rows
 * (`replace(s, 'e', s)` over a `string_agg`: |s|² characters) stay: the runner's memory cap
 * bounds them, with 422 `sql_out_of_memory` (decision 0108).
 */

/** Aggregates and window functions. */
const AGGREGATES = [
  'array_agg',
  'avg',
  'bool_and',
  'bool_or',
  'count',
  'cume_dist',
  'dense_rank',
  'every',
  'first_value',
  'jsonb_agg',
  'jsonb_object_agg',
  'json_agg',
  'lag',
  'last_value',
  'lead',
  'max',
  'min',
  'mode',
  'ntile',
  'percent_rank',
  'percentile_cont',
  'percentile_disc',
  'rank',
  'row_number',
  'stddev',
  'string_agg',
  'sum',
  'variance',
]

/** Scalar functions over text, numbers, times, JSON and arrays. */
const SCALARS = [
  'abs',
  'age',
  'array_length',
  'array_to_string',
  'btrim',
  'cardinality',
  'ceil',
  'ceiling',
  'char_length',
  'character_length',
  'concat',
  'concat_ws',
  'date_part',
  'date_trunc',
  'extract',
  'floor',
  'initcap',
  'jsonb_array_length',
  'jsonb_build_object',
  'jsonb_extract_path_text',
  'jsonb_typeof',
  'left',
  'length',
  'lower',
  'ltrim',
  'make_date',
  'md5',
  'mod',
  'now',
  'position',
  'replace',
  'right',
  'round',
  'rtrim',
  'sign',
  'split_part',
  'sqrt',
  'starts_with',
  'strpos',
  'substr',
  'substring',
  'to_char',
  'to_date',
  'to_jsonb',
  'to_timestamp',
  'trim',
  'trunc',
  'upper',
]

/** Functions a query may call, by unqualified name (or `pg_catalog.` name). */
export const SQL_FUNCTIONS: ReadonlySet<string> = new Set([...AGGREGATES, ...SCALARS])

/**
 * Operators, by name: comparison, arithmetic, text concatenation, LIKE and ILIKE (`~~`, `~~*`),
 * JSON access and containment, array overlap. Not the regular-expression operators (`~`,
 * SIMILAR TO): a pattern's cost is not the planner's.
 */
export const SQL_OPERATORS: ReadonlySet<string> = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '||',
  '~~',
  '!~~',
  '~~*',
  '!~~*',
  '->',
  '->>',
  '#>',
  '#>>',
  '@>',
  '<@',
  '?',
  '?|',
  '?&',
  '&&',
])

/** Kinds of operator expression (libpg-query's A_Expr_Kind) a query may use. */
export const SQL_EXPRESSION_KINDS: ReadonlySet<string> = new Set([
  'AEXPR_OP',
  'AEXPR_OP_ANY',
  'AEXPR_OP_ALL',
  'AEXPR_DISTINCT',
  'AEXPR_NOT_DISTINCT',
  'AEXPR_NULLIF',
  'AEXPR_IN',
  'AEXPR_LIKE',
  'AEXPR_ILIKE',
  'AEXPR_BETWEEN',
  'AEXPR_NOT_BETWEEN',
  'AEXPR_BETWEEN_SYM',
  'AEXPR_NOT_BETWEEN_SYM',
])

/**
 * Types a value may be cast to, by name as the parser gives it (`integer` is `int4`): their
 * input functions only parse text. Not the `reg*` types, whose input reads the catalogs.
 */
export const SQL_TYPES: ReadonlySet<string> = new Set([
  'bool',
  'boolean',
  'bpchar',
  'date',
  'float4',
  'float8',
  'int',
  'int2',
  'int4',
  'int8',
  'integer',
  'bigint',
  'smallint',
  'interval',
  'json',
  'jsonb',
  'numeric',
  'decimal',
  'real',
  'text',
  'time',
  'timestamp',
  'timestamptz',
  'uuid',
  'varchar',
])

/** SQL value keywords (libpg-query's SQLValueFunctionOp): the clock only, not the user names. */
export const SQL_VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  'SVFOP_CURRENT_DATE',
  'SVFOP_CURRENT_TIME',
  'SVFOP_CURRENT_TIME_N',
  'SVFOP_CURRENT_TIMESTAMP',
  'SVFOP_CURRENT_TIMESTAMP_N',
  'SVFOP_LOCALTIME',
  'SVFOP_LOCALTIME_N',
  'SVFOP_LOCALTIMESTAMP',
  'SVFOP_LOCALTIMESTAMP_N',
])
