// Divinity's web module: what the lobby and the router need of it (the
// interface: web/TESTING.md, "Game modules"; loaded by web/games.js).
// Divinity is played as a campaign: a party's locations are its matches.

import { api } from "../../net.js";
import { divinityPage } from "./page.js";
import { campaignPage, campaignForm, campaignWords } from "./campaign.js";
import { loadCatalogue } from "./catalogue.js";
import { originName } from "./names.js";

const STAGE = { choosing: "choosing Origins", playing: "playing a location", between: "between two locations", over: "over" };

export default {
  title: "Divinity",
  order: 10,
  page: (app, id, spectator, go) => divinityPage(app, id, spectator, go),
  newGameForm: ({ go }) => campaignForm(go),
  /// A party's location is listed to watch while it is played (its seats
  /// are taken through the campaign's own link); the campaign says who is
  /// at the table.
  listing(m, status) {
    if (status !== "active") return null;
    const later = m.campaign_id
      ? loadCatalogue().catch(() => null).then(() => api("GET", `/api/campaigns/${m.campaign_id}`)).then(campaignWords)
      : null;
    return { words: `Divinity, a party of ${m.seats}`, later };
  },
  campaign: {
    page: (app, id, go) => campaignPage(app, id, go),
    /// This browser's campaign in words: its Origin and where the party is.
    async describeMine(st) {
      await loadCatalogue().catch(() => null);
      const own = st.seats.find((x) => x.seat === st.you)?.label;
      return `Divinity campaign${own ? ` · you play ${originName(own)}` : ""} · ${STAGE[st.stage] ?? st.stage}`;
    },
  },
};
