-- Log records other than engine actions, and who sent each. `kind`:
-- `action` (the engine's action), `take_back` (action = {"seq": N}: the seat's
-- own action N is undone), `hand` (action = {"seat": S, "to": T|null}: control
-- of seat S passes to seat T). `sender`: the seat whose player sent the record
-- when it differs from `seat` (a handed seat), else NULL.
ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'action';
ALTER TABLE actions ADD COLUMN sender INTEGER;
