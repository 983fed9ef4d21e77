#include "tools/gen-catalog/vocabulary.h"

namespace tools::gen_catalog::vocabulary {
namespace {

constexpr std::string_view kAdvertiserNames[] = {
    "Acme Air",         "Lumière Café",          "Northwind Books",       "Solaris Energy",
    "Bäckerei Müller",  "Nordlys Søvn",          "Café São Paulo",        "Ōsaka Ramen Bar",
    "Zürich Uhrenhaus", "Çiçek Flowers",         "The \"Corner\" Bakery", "Back\\Slash Records",
    "Atelier Étoile",   "Blue Harbor Insurance", "Greenfield Grocers",    "Helios Fitness",
    "Kraków Tours",     "Maple & Oak Furniture", "Pixel Forge Games",     "Riverside Motors",
    "Tidewater Travel", "Urban Threads",         "Vega Telecom",          "さくら Sushi",
};

constexpr std::string_view kLegalForms[] = {"Ltd", "SAS", "GmbH", "S.A.", "Inc.", "S.r.l."};

// Video templates start with "video_": video ads use them when the catalog has one.
constexpr NamedTemplate kTemplates[] = {
    {"native_card", "default"},  {"native_feed", "compact"}, {"native_article", "highlight"},
    {"video_player", "default"}, {"native_banner", ""},      {"native_story", "dark"},
    {"video_outstream", ""},
};

constexpr std::string_view kAdStyles[] = {"default", "highlight", "compact", "dark"};

constexpr AdCopy kAdCopy[] = {
    {"en",
     {"Spring sale: up to 40% off", "Free delivery all week", "The new collection is here",
      "Book today and save 20%", "Try it free for 30 days", "Members earn double points"},
     {"Hundreds of items reduced, while stocks last.", "Order before 8pm, delivered tomorrow.",
      "\"The best launch of the year\" — Daily Gazette",
      "Flexible dates, free cancellation up to 48 hours before.",
      "No commitment: cancel any time in two clicks.", "Join in a minute and start saving today."},
     {"Shop now", "Order now", "Discover", "Book now", "Start free trial", "Join now"}},
    {"fr",
     {"Soldes de printemps : jusqu'à -40 %", "Livraison offerte toute la semaine",
      "La nouvelle collection est arrivée", "Réservez aujourd'hui, économisez 20 %",
      "Essai gratuit pendant 30 jours", "Points doublés pour les membres"},
     {"Des centaines d'articles à prix réduit, dans la limite des stocks.",
      "Commandez avant 20 h, livré demain.", "« Le meilleur lancement de l'année » — Le Quotidien",
      "Dates flexibles, annulation gratuite jusqu'à 48 h avant.",
      "Sans engagement : résiliez à tout moment en deux clics.",
      "Inscrivez-vous en une minute et économisez dès aujourd'hui."},
     {"J'en profite", "Commander", "Découvrir", "Réserver", "Essayer gratuitement", "Adhérer"}},
    {"de",
     {"Frühlingsangebote: bis zu 40 % Rabatt", "Kostenlose Lieferung die ganze Woche",
      "Die neue Kollektion ist da", "Heute buchen und 20 % sparen", "30 Tage kostenlos testen",
      "Doppelte Punkte für Mitglieder"},
     {"Hunderte Artikel reduziert, solange der Vorrat reicht.",
      "Bis 20 Uhr bestellt, morgen geliefert.", "„Der beste Start des Jahres“ — Tageblatt",
      "Flexible Termine, kostenlose Stornierung bis 48 Stunden vorher.",
      "Keine Bindung: jederzeit mit zwei Klicks kündbar.",
      "In einer Minute anmelden und ab heute sparen."},
     {"Jetzt shoppen", "Jetzt bestellen", "Entdecken", "Jetzt buchen", "Gratis testen",
      "Mitglied werden"}},
    {"es",
     {"Rebajas de primavera: hasta un 40 % menos", "Envío gratis toda la semana",
      "Ya está aquí la nueva colección", "Reserva hoy y ahorra un 20 %",
      "Pruébalo gratis durante 30 días", "Puntos dobles para socios"},
     {"Cientos de artículos rebajados, hasta agotar existencias.",
      "Pide antes de las 20:00 y recíbelo mañana.",
      "«El mejor lanzamiento del año» — Diario Central",
      "Fechas flexibles, cancelación gratuita hasta 48 horas antes.",
      "Sin permanencia: cancela cuando quieras en dos clics.",
      "Únete en un minuto y empieza a ahorrar hoy."},
     {"Comprar ahora", "Pedir ahora", "Descubrir", "Reservar", "Probar gratis", "Unirme"}},
    {"it",
     {"Saldi di primavera: fino al 40% di sconto", "Consegna gratuita tutta la settimana",
      "È arrivata la nuova collezione", "Prenota oggi e risparmia il 20%",
      "Provalo gratis per 30 giorni", "Punti doppi per i soci"},
     {"Centinaia di articoli scontati, fino a esaurimento scorte.",
      "Ordina entro le 20 e lo ricevi domani.",
      "«Il miglior lancio dell'anno» — Gazzetta del Giorno",
      "Date flessibili, cancellazione gratuita fino a 48 ore prima.",
      "Nessun vincolo: disdici quando vuoi in due clic.",
      "Iscriviti in un minuto e inizia a risparmiare oggi."},
     {"Acquista ora", "Ordina ora", "Scopri", "Prenota", "Prova gratis", "Iscriviti"}},
    {"pt-BR",
     {"Liquidação de primavera: até 40% off", "Frete grátis a semana toda", "A nova coleção chegou",
      "Reserve hoje e economize 20%", "Teste grátis por 30 dias", "Pontos em dobro para membros"},
     {"Centenas de itens com desconto, enquanto durarem os estoques.",
      "Peça até as 20h e receba amanhã.", "“O melhor lançamento do ano” — Diário Central",
      "Datas flexíveis, cancelamento grátis até 48 horas antes.",
      "Sem fidelidade: cancele quando quiser em dois cliques.",
      "Cadastre-se em um minuto e comece a economizar hoje."},
     {"Comprar agora", "Pedir agora", "Descobrir", "Reservar", "Testar grátis", "Participar"}},
};

// Countries: GB, FR, DE, US, ES, IT. Cities: Paris, London, Berlin, New York.
constexpr uint64_t kGeoIds[] = {2635167, 3017382, 2921044, 6252001, 2510769,
                                3175395, 2988507, 2643743, 2950159, 5128581};

constexpr Place kCities[] = {
    {2988507, "Paris", 48.8566, 2.3522},           {2643743, "London", 51.5074, -0.1278},
    {2950159, "Berlin", 52.5200, 13.4050},         {5128581, "New York", 40.7128, -74.0060},
    {3117735, "Madrid", 40.4168, -3.7038},         {3169070, "Rome", 41.9028, 12.4964},
    {2267057, "Lisbon", 38.7223, -9.1393},         {1850147, "Tokyo", 35.6762, 139.6503},
    {3435910, "Buenos Aires", -34.6037, -58.3816}, {2147714, "Sydney", -33.8688, 151.2093},
};

// Lisbon, Rome, Barcelona, Tokyo, New York, Paris, London.
constexpr uint64_t kDestinationIds[] = {2267057, 3169070, 3128760, 1850147,
                                        5128581, 2988507, 2643743};

constexpr std::string_view kCustomExpressions[] = {
    "custom.section == \"sports\"",
    "custom.section in [\"news\", \"politics\"]",
    "custom.age >= 18 && custom.age < 35",
    "\"premium\" in custom.tags",
    "has(custom.member) && custom.member",
    "custom.tier == 'gold' && custom.age >= 18",
    "has(custom.cart_value) && custom.cart_value > 50.0",
    "custom.section == \"travel\" || \"travel\" in custom.tags",
};

constexpr std::string_view kTimeZones[] = {"Europe/Paris", "Europe/London", "Europe/Berlin",
                                           "America/New_York"};

constexpr CapShape kShortCaps[] = {{1, 3600}, {2, 3600}, {3, 6 * 3600}};
constexpr CapShape kLongCaps[] = {{3, 86400}, {5, 86400}, {10, 7 * 86400}, {20, 30 * 86400}};

constexpr std::string_view kCustomEvents[] = {"add_to_cart", "coupon_saved", "newsletter_signup",
                                              "quote_started", "store_locator"};

constexpr Rendition kRenditions[] = {
    {640, 360, 800, "video/mp4", "mp4"},
    {1280, 720, 2500, "video/mp4", "mp4"},
    {1920, 1080, 5000, "video/mp4", "mp4"},
    {1280, 720, 2000, "video/webm", "webm"},
};

constexpr uint32_t kVideoDurations_s[] = {6, 15, 20, 30};

}  // namespace

std::span<const std::string_view> advertiser_names() { return kAdvertiserNames; }
std::span<const std::string_view> legal_forms() { return kLegalForms; }
std::span<const NamedTemplate> templates() { return kTemplates; }
std::span<const std::string_view> ad_styles() { return kAdStyles; }

const AdCopy& ad_copy(std::string_view language) {
  for (const AdCopy& copy : kAdCopy) {
    if (copy.language == language) return copy;
  }
  return kAdCopy[0];
}

std::span<const uint64_t> geo_ids() { return kGeoIds; }
std::span<const Place> cities() { return kCities; }
std::span<const uint64_t> destination_ids() { return kDestinationIds; }
std::span<const std::string_view> custom_expressions() { return kCustomExpressions; }
std::span<const std::string_view> time_zones() { return kTimeZones; }
std::span<const CapShape> short_caps() { return kShortCaps; }
std::span<const CapShape> long_caps() { return kLongCaps; }
std::span<const std::string_view> custom_events() { return kCustomEvents; }
std::span<const Rendition> renditions() { return kRenditions; }
std::span<const uint32_t> video_durations_s() { return kVideoDurations_s; }

}  // namespace tools::gen_catalog::vocabulary
