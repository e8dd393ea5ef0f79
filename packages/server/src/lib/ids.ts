const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from outside are strings; anything that is not a UUID simply matches no row. */
export const isUuid = (id: string): boolean => UUID.test(id);
