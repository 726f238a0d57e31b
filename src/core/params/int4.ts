/** The largest value of PostgreSQL's `integer` (int4): the bound of every integer id and integer parameter. */
export const INT4_MAX = 2147483647;
