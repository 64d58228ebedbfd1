/**
 * The sandbox embedding's notion of meaning (docs/decisions/0030): groups of everyday Spanish words a small business
 * and its customers use for the same thing, so "¿cuánto sale?" lands near "precio", "¿mandan a domicilio?" near
 * "envíos" and "¿cuánto aguanta?" near "batería". Written from general knowledge of the language and of how small
 * businesses talk with their customers in Mexico, Central America, Colombia, Venezuela, Peru, Chile, Argentina, Uruguay
 * and Spain, evenly across the common trades (clothing and shoes, electronics, furniture and home, hardware, sports,
 * cosmetics and pharmacy, restaurants, cafés, bakeries, ice cream, salons and barbers, nails, spas, clinics, vets,
 * gyms, workshops, laundries, courses, lodging, events) and the topics every one of them is asked about (hours,
 * location, shipping, pickup, payment, prices, promotions, returns, warranty, bookings, stock, sizes, specifications,
 * care, wholesale, invoices, contact, memberships, gifts, diets, children, pets, accessibility, safety, used goods).
 * It was written without looking at any evaluation question, so whatever it scores there says what general knowledge
 * is worth; fitting it to such questions would measure nothing.
 *
 * Each word is written folded (lower case, no accents, "ñ" as "n") and matched by the stem of its sound, so listing
 * one form covers its plural, most verb forms and common misspellings; a word may belong to more than one group when
 * it means both. A stopword of the text counts only when a group lists it as written (the question word "donde"), so
 * words that mean nothing alone ("que", "como", "dia", "hacer", "hasta") are in no group; left out too are words whose
 * folded form is such a word ("uña" folds to the article "una"), words sharing a key with a common word ("cera" sounds
 * like "será", "tubo" like "tuvo", "contado" stems like "contamos"), and words that mean something else as often as
 * their topic ("agua", "pie", "llave", "consulta"). It is small and knows nothing outside these topics: a real
 * model's embeddings are what understands language.
 */
export const CONCEPTS: Record<string, string> = {
  // Cross-cutting topics: what a customer asks any business.
  horario: `horario hora abrir abierto abierta abren cerrar cierran cerrado cerrada atender atienden atencion apertura
    cierre jornada lunes martes miercoles jueves viernes sabado domingo finde semana madrugada mediodia temprano noche
    nocturno laborable laborar siesta turno abre abrimos cerramos`,
  feriado: `feriado festivo asueto puente navidad nochebuena nochevieja reyes pascua carnaval vacaciones descanso
    descansar patrio independencia inhabil`,
  ubicacion: `direccion ubicacion ubicado ubicada ubicar donde calle avenida carrera local sucursal tienda llegar
    llegamos mapa maps waze gps esquina cuadra colonia barrio piso edificio centro comercial mall shopping cerca
    cerquita enfrente zona referencia ciudad municipio comuna provincia distrito localidad urbanizacion
    fraccionamiento metro subte estacion parada bus autobus colectivo micro taxi uber indicaciones llego`,
  estacionamiento: `estacionamiento estacionar parquear parqueadero parqueo aparcar aparcamiento cochera parking valet
    garaje garage cuidacoches`,
  envio: `envio enviar despacho despachar entrega entregar delivery domicilio domiciliario mandar paqueteria paquete
    courier mensajeria mensajero repartidor reparto repartir motoboy cadete flete correo transportadora encomienda
    guia rastreo rastrear seguimiento traer llevar cobertura nacional internacional contraentrega contrarreembolso dhl
    fedex estafeta servientrega chilexpress starken andreani olva rappi pedidosya glovo`,
  plazo: `tardar demorar demora plazo habil rapido pronto urgente express llegar espera esperar retraso retrasar
    atraso atrasar tardanza inmediato inmediata prioridad prioritario llega llegan rapida`,
  retiro: `retirar retiro recoger recogida recojo pickup takeaway llevar`,
  pedido: `pedido encargo encargar carrito checkout online compra comprar`,
  precio: `precio costo cuesta costar sale vale valor cobrar cobro tarifa tarifario barato caro economico costoso
    cotizacion cotizar presupuesto pesos dolares soles euros quetzales lempiras colones cordobas bolivares monto
    importe gasto total arancel honorario propina lana plata varo guita pisto luca lucas salen valen`,
  pago: `pago pagar tarjeta credito debito transferencia efectivo cash deposito cuota mercadopago paypal billetera
    nequi daviplata yape plin bizum spei oxxo cbu cvu sinpe zelle binance cripto bitcoin usdt visa mastercard amex
    datafono posnet qr webpay transbank abono abonar adelanto anticipo enganche apartado apartar financiamiento
    financiar mensualidad msi diferido fiado fiar contraentrega contrarreembolso cheque pagan pague paga`,
  factura: `factura facturar facturacion comprobante boleta recibo ticket fiscal impuesto rfc cfdi sat nit ruc rif
    cuit rut nif cif tributario contribuyente constancia timbrado`,
  devolucion: `devolucion devolver reembolso reembolsar reintegro reintegrar cambio cambiar reclamo reclamar
    arrepentimiento retracto regresar desistir retornar`,
  reclamo: `reclamo reclamar reclamacion queja quejar inconformidad insatisfecho profeco consumidor`,
  garantia: `garantia garantizar defecto defectuoso falla fallar roto romper danado danar estropeado averiado averia
    golpeado descompuesto encender reparacion reparar arreglo arreglar componer tecnico cobertura fabrica rota rompio
    fallo danada dano`,
  reparacion: `reparacion reparar arreglo arreglar componer tecnico taller mecanico mecanica diagnostico revision
    chequeo repuesto refaccion recambio soldar`,
  instalacion: `instalar instalacion montaje ensamblar ensamble armar armado colocacion`,
  mantenimiento: `mantenimiento mantener cuidado cuidar conservar limpiar limpieza lubricar engrasar calibrar service`,
  durabilidad: `durar duracion durable durabilidad aguantar aguante resistente resistencia bateria pila autonomia
    rinde rendimiento dura duran`,
  reserva: `reserva reservar reservacion booking cita agendar agenda agendamiento turno apartar cupo disponibilidad
    mesa sesion inscribir inscripcion anotar confirmar confirmacion`,
  cancelacion: `cancelar cancelacion anular reprogramar reagendar posponer suspender inasistencia faltar penalidad
    penalizacion multa`,
  contacto: `telefono whatsapp wsp wasap whats correo email mail llamar llamada contacto contactar comunicar escribir
    mensaje redes instagram facebook tiktok telegram youtube chat chatear inbox celular movil asesor agente operador
    humano`,
  promocion: `descuento descontar promocion promo oferta cupon rebaja rebajado liquidacion combo gratis gratuito
    cortesia regalo obsequio beneficio outlet remate ganga sorteo rifa black friday cyber`,
  regalo: `regalo regalar obsequio obsequiar gift giftcard bono envoltura envolver sorpresa canjear`,
  existencia: `stock existencia agotado agotar inventario disponible disponibilidad quedan reponer reposicion surtido
    mercaderia mercancia catalogo preventa`,
  talla: `talla talle tallaje queda quedar calzar calce horma ajustado holgado entallado oversize probador xs xl xxl`,
  color: `color colores tono tonalidad negro blanco rojo azul verde amarillo gris rosa rosado morado lila beige marron
    dorado plateado estampado`,
  medida: `medida medir mide tamano dimension largo ancho alto altura profundidad grosor espesor diametro centimetro
    metro pulgada rodado pesa pesar pesado liviano ligero kilo kilogramo gramo libra capacidad litro volumen miden
    pesan cabe caben`,
  material: `material tela algodon poliester lino seda lana cuero piel sintetico madera pino roble melamina metal acero
    inoxidable aluminio hierro fierro plastico vidrio cristal ceramica porcelana marmol granito impermeable`,
  potencia: `potencia watt voltaje voltio amperio motor velocidad velocidades rapidez rpm cilindrada consumo
    rendimiento eficiencia`,
  mayoreo: `mayoreo mayorista menudeo minorista distribuidor distribuidora revendedor revender reventa lote docena
    bulto`,
  requisito: `requisito documento documentacion identificacion cedula dni ine carnet credencial pasaporte licencia
    receta edad permiso autorizacion`,
  membresia: `membresia socio club puntos lealtad fidelidad recompensa acumular suscripcion suscribir afiliacion
    afiliado plan mensualidad anualidad vip premium cashback canjear canje`,
  usado: `usado usada seminuevo reacondicionado refurbished canje permuta permutar trueque retoma consignacion empeno`,
  original: `original originalidad autentico replica imitacion clon pirata`,
  seguro: `seguro asegurar asegurado aseguradora poliza siniestro deducible soat cobertura perdida perder extravio
    extraviar robo seguridad vigilancia vigilante guardia alarma custodia`,
  accesibilidad: `silla rampa accesible accesibilidad elevador ascensor bano discapacidad discapacitado movilidad
    escalon escalera braille baston muleta andadera sordo ciego invidente`,
  nino: `nino nina infantil hijo hija bebe nene nena pibe crio guagua peque juvenil chamaco escuincle cipote chamo
    kids adolescente guarderia ludoteca juguete jugueteria cambiador carriola cochecito`,
  mascota: `mascota perro perrito lomito gato gatito michi minino cachorro canino felino animal pet petfriendly collar jaula
    arenero croqueta`,
  dieta: `vegano vegan vegetariano gluten celiaco celiaquia tacc lactosa deslactosado vegetal azucar alergia alergico
    alergeno intolerancia intolerante keto mani cacahuate nuez soya soja diabetico light saludable organico halal
    trazas leche`,
  conexion: `wifi internet contrasena enchufe cargador tomacorriente senal usb cable bluetooth`,

  // Trades: what each kind of business sells or does, with the names each country gives it.
  ropa: `ropa prenda vestido camisa camiseta playera remera polera franela pantalon jean jeans vaquero mezclilla falda
    pollera short bermuda blusa chaqueta chamarra campera casaca abrigo sueter sweater buzo poleron sudadera hoodie
    chaleco lenceria pijama calcetin calceta bufanda gorra gorro sombrero cinturon uniforme moda coleccion boutique`,
  calzado: `calzado zapato zapateria zapatilla tenis sandalia bota botin chancla chancleta ojota mocasin tacon
    plantilla suela pantufla horma calzar`,
  electronica: `electronica celular movil smartphone telefono iphone android samsung xiaomi motorola huawei tablet
    laptop notebook portatil computadora computador ordenador pc monitor pantalla televisor tele tv audifonos
    auriculares parlante bocina altavoz consola videojuego camara smartwatch chip sim liberado imei memoria
    almacenamiento gb ram procesador mica funda carcasa impresora gamer`,
  electrodomestico: `electrodomestico refrigerador refrigeradora nevera heladera congelador lavadora secadora
    microondas estufa cocineta horno licuadora batidora cafetera ventilador acondicionado calefactor calentador boiler
    plancha aspiradora`,
  mueble: `mueble muebleria sofa sillon cama colchon almohada mesa silla escritorio ropero closet armario placard
    estante estanteria repisa librero vitrina comedor living alfombra tapete cortina persiana lampara cojin colcha
    edredon decoracion hogar`,
  ferreteria: `ferreteria herramienta taladro martillo destornillador desarmador tornillo clavo tuerca pintura brocha
    rodillo cemento yeso tuberia manguera foco bombilla bombillo ampolleta candado cerradura chapa pegamento silicona
    lija serrucho pala plomeria fontaneria electricista construccion ladrillo varilla tablaroca drywall pvc grifo
    canilla lavamanos inodoro`,
  bicicleta: `bicicleta bici bicicleteria cicla bike rodado pedal pedalear cadena pinon freno manubrio manillar sillin
    ciclismo ciclista mtb bmx monopatin patineta scooter casco`,
  llanta: `llanta neumatico caucho cubierta goma rin rines rueda ponchar ponchadura pinchar pinchazo vulcanizadora
    gomeria montallantas parche`,
  vehiculo: `coche auto automovil camioneta vehiculo moto motocicleta motoneta scooter motor freno embrague clutch
    suspension alineacion alinear balanceo balancear afinacion escape radiador transmision carroceria hojalateria itv
    vtv placa patente grua kilometraje casco`,
  deporte: `deporte deportivo futbol balon pelota raqueta padel tenis basquet basquetbol baloncesto voley voleibol
    beisbol cancha rodillera canillera espinillera patin skate`,
  gimnasio: `gimnasio gym gimnasia entrenar entrenamiento entrenador coach rutina musculacion cardio mancuerna maquina
    crossfit spinning zumba yoga pilates box boxeo karate natacion casillero locker vestidor vestuario ducha regadera
    toalla proteina suplemento creatina`,
  camping: `camping acampar campamento carpa sleeping mochila linterna hielera termo senderismo trekking excursion
    outdoor hamaca`,
  cosmetica: `cosmetico cosmetica maquillaje labial rimel perfume fragancia piel cutis facial skincare serum
    bloqueador solar fps spf shampoo champu acondicionador desodorante jabon dermatologico hipoalergenico acne
    antiedad hidratante hidratar exfoliante`,
  farmacia: `farmacia drogueria botica medicamento medicina remedio pastilla capsula jarabe receta generico
    antibiotico analgesico ibuprofeno paracetamol vitamina suplemento inyeccion vacuna termometro curita gasa
    preservativo condon embarazo farmaceutico`,
  comida: `comida comer desayuno desayunar almuerzo almorzar cena cenar merienda lonche menu carta platillo plato
    postre porcion racion antojo botana picada snack ensalada sopa caldo guiso pollo carne pescado marisco arroz queso
    hamburguesa taco burrito empanada arepa tamal pupusa ceviche sushi pasta pizza pizzeria calzone mozzarella
    muzzarella pepperoni parrilla parrillada asado milanesa restaurante restaurant fonda cocina chef cocinero mesero
    mozo camarero comensal buffet bufet vianda sabor torta sandwich`,
  bebida: `bebida beber jugo zumo licuado batido smoothie refresco gaseosa soda cerveza chela birra trago coctel
    michelada licor bar infusion`,
  cafeteria: `cafe cafeteria cafecito espresso expreso capuchino cappuccino latte mocha moka frappe frappuccino
    descafeinado grano molido barista leche brunch`,
  panaderia: `pan panaderia panadero pasteleria pastel torta queque bizcocho ponque tarta cake cupcake galleta
    medialuna croissant bolleria reposteria repostero postre rosca baguette hornear horno horneado relleno betun
    fondant merengue panes`,
  heladeria: `helado heladeria gelato nieve paleta sorbete cucurucho barquillo cono malteada sundae sabor`,
  peluqueria: `peluqueria peluquero estetica estilista corte cortar pelo cabello melena tinte tintura mechas rayitos
    reflejos balayage alisado keratina brushing blower peinado peinar rizos rulos extensiones capilar flequillo fleco`,
  barberia: `barberia barbero barba bigote afeitar afeitado rasurar degradado fade navaja perfilado perfilar corte`,
  manicura: `manicura manicure manicurista pedicura pedicure esmalte esmaltado gelish acrilico semipermanente kapping
    polygel nail nails`,
  spa: `spa masaje masajista relajante relajacion descontracturante reductor drenaje linfatico facial sauna jacuzzi
    hidromasaje aromaterapia depilacion depilar laser cejas pestanas lifting microblading reflexologia`,
  dental: `dentista odontologo odontologia dental diente muela brackets braquets ortodoncia frenillos blanqueamiento
    caries endodoncia extraccion implante resina empaste encias protesis dentadura sarro`,
  clinica: `medico doctor doctora consultorio clinica hospital especialista pediatra ginecologo dermatologo nutriologo
    nutricionista psicologo terapia fisioterapia kinesiologia kinesiologo quiropractico laboratorio examen radiografia
    ecografia ultrasonido sangre paciente enfermera urgencia emergencia sintoma dolor prepaga isapre fonasa eps`,
  veterinaria: `veterinaria veterinario vacuna desparasitar desparasitacion antipulgas garrapata esterilizar
    esterilizacion castrar castracion grooming canino felino`,
  lavanderia: `lavanderia lavar lavado lavadora secar secado secadora planchar planchado tintoreria lavaseco lavadero
    mancha suavizante detergente edredon lavan`,
  curso: `curso cursar clase leccion aprender ensenar ensenanza instructor profesor profe maestro tutor tutoria
    asesoria regularizacion nivelacion refuerzo academia escuela alumno estudiante matricula inscripcion certificado
    diploma temario presencial virtual zoom idioma ingles taller`,
  hotel: `hotel hostal hostel hospedaje alojamiento posada cabana airbnb habitacion suite cama matrimonial huesped
    checkin checkout recepcion estadia estancia pernoctar dormitorio toalla amenities piscina alberca pileta noche`,
  evento: `evento fiesta cumpleanos grupo reunion privado capacidad aforo celebracion boda casamiento matrimonio
    bautizo comunion shower despedida graduacion aniversario banquete catering banquetera animacion dj inflable
    brincolin pinata invitado concierto show espectaculo caben`,
  renta: `renta rentar alquiler alquilar arriendo arrendar arrendamiento prestamo prestar`,
};
