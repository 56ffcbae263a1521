// The Athlas web client's entry point.
document.getElementById("app").textContent = "Athlas";
