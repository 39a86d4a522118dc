// Path parameters shared by many routes; every id is a UUID (spec section 2), checked at the edge.
import { z } from 'zod';

export const uuidParam = (name: string) => z.uuid({ error: `${name} must be a UUID` });

export const ProjectParams = z.object({ id: uuidParam('id') });
export const projectParamsWith = <K extends string>(...names: K[]) =>
  z.object({ id: uuidParam('id'), ...(Object.fromEntries(names.map((name) => [name, uuidParam(name)])) as Record<K, z.ZodUUID>) });
