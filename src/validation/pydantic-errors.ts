/** pydantic v2 error specs shared by the lax coercions and the zod issue conversion. */

/** A pydantic error in the making: type, message and context; loc and input are filled in later. */
export interface PydanticErrorSpec {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

export type Coerced<T> = { ok: true; value: T } | { ok: false; error: PydanticErrorSpec };

/** The key under which a zod custom issue's params carry the pydantic error it stands for. */
export const PYDANTIC = 'pydantic';

const spec = (type: string, msg: string): PydanticErrorSpec => ({ type, msg });

export const INT_TYPE = spec('int_type', 'Input should be a valid integer');
export const INT_PARSING = spec('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
export const INT_FROM_FLOAT = spec('int_from_float', 'Input should be a valid integer, got a number with a fractional part');
export const FLOAT_TYPE = spec('float_type', 'Input should be a valid number');
export const FLOAT_PARSING = spec('float_parsing', 'Input should be a valid number, unable to parse string as a number');
export const FINITE_NUMBER = spec('finite_number', 'Input should be a finite number');
export const BOOL_TYPE = spec('bool_type', 'Input should be a valid boolean');
export const BOOL_PARSING = spec('bool_parsing', 'Input should be a valid boolean, unable to interpret input');
export const DATE_TYPE = spec('date_type', 'Input should be a valid date');
export const DATE_INEXACT = spec('date_from_datetime_inexact', 'Datetimes provided to dates should have zero time - e.g. be exact dates');

export const ok = <T>(value: T): Coerced<T> => ({ ok: true, value });
export const fail = (error: PydanticErrorSpec): Coerced<never> => ({ ok: false, error });
