/**
 * The sandbox embedding's notion of meaning (docs/decisions/0030): groups of everyday Spanish words a small business
 * and its customers use for the same thing, so "¿cuánto sale?" lands near "precio" and "¿mandan a domicilio?" near
 * "envíos". Written from general knowledge of how shops, workshops, salons, clinics, cafés and restaurants in Mexico,
 * Central and South America and Spain talk about their service, not from any evaluation question. Each word is matched
 * by the stem of its sound, so listing one form covers its plural, most verb forms and common misspellings; a word
 * may belong to more than one group. It is small and knows nothing outside these topics: a real model's embeddings
 * are what understands language.
 */
export const CONCEPTS: Record<string, string> = {
  horario: `horario hora abrir abierto abierta cerrar cierran cerrado cerrada atender atienden atencion apertura cierre jornada
    lunes martes miercoles jueves viernes sabado domingo finde semana madrugada mediodia temprano`,
  feriado: `feriado festivo asueto puente navidad nochebuena reyes pascua vacaciones descanso
    descansar patrio independencia`,
  ubicacion: `direccion ubicacion ubicado ubicada donde calle avenida local sucursal tienda llegar llegamos mapa esquina colonia
    barrio piso edificio plaza cerca zona referencia ciudad metro parada`,
  estacionamiento: `estacionamiento estacionar parquear parqueadero parqueo aparcar aparcamiento cochera parking valet carro coche
    auto automovil camioneta moto`,
  envio: `envio enviar despacho despachar entrega entregar delivery domicilio mandar paqueteria paquete courier mensajeria
    repartidor reparto repartir flete correo transportadora guia rastreo rastrear seguimiento traer llevar`,
  plazo: `tardar demorar demora plazo habil rapido pronto urgente express llegar`,
  precio: `precio costo cuesta costar sale vale valor cobrar cobro tarifa barato caro economico cotizacion cotizar presupuesto
    pesos dolares soles euros monto importe cargo lana plata pasta varo guita`,
  pago: `pago pagar tarjeta credito debito transferencia efectivo deposito cuota contado mercadopago paypal billetera
    nequi yape daviplata bizum spei oxxo abono abonar adelanto anticipo sena apartado apartar financiamiento financiar`,
  factura: `factura facturar facturacion comprobante boleta recibo ticket fiscal impuesto iva rfc cfdi nit cuit rut`,
  devolucion: `devolucion devolver reembolso reembolsar reintegro cambio cambiar reclamo reclamar arrepentimiento retracto regresar`,
  garantia: `garantia defecto defectuoso falla fallar roto romper danado danar estropeado averiado averia golpeado descompuesto
    reparacion reparar arreglo arreglar componer tecnico cobertura`,
  reserva: `reserva reservar reservacion cita agendar agenda turno apartar cupo disponibilidad mesa sesion inscribir
    inscripcion anotar`,
  cancelacion: `cancelar cancelacion anular reprogramar posponer suspender inasistencia faltar`,
  contacto: `telefono whatsapp correo email mail llamar llamada contacto escribir mensaje redes instagram facebook celular`,
  promocion: `descuento promocion oferta cupon rebaja liquidacion combo gratis regalo beneficio outlet remate`,
  existencia: `stock existencia agotado inventario talla color medida tamano disponible`,
  requisito: `requisito documento identificacion cedula dni pasaporte licencia receta edad`,
  mascota: `mascota perro perrito gato gatito animal correa`,
  nino: `nino nina infantil hijo hija bebe nene nena pibe crio guagua peque juvenil`,
  comida: `comida comer desayuno desayunar almuerzo almorzar cena cenar menu carta platillo plato postre bebida beber cafe
    jugo agua refresco gaseosa cerveza vino pan sandwich torta ensalada botana snack`,
  dieta: `vegano vegetariano gluten celiaco lactosa deslactosado vegetal azucar alergia alergeno keto`,
  conexion: `wifi internet contrasena enchufe cargador`,
  accesibilidad: `silla rampa accesible accesibilidad elevador ascensor bano`,
  evento: `evento fiesta cumpleanos grupo reunion privado capacidad celebracion`,
  curso: `curso clase leccion aprender ensenar instructor profesor`,
  renta: `renta rentar alquiler alquilar arriendo arrendar prestamo prestar`,
  membresia: `membresia socio club puntos lealtad fidelidad recompensa acumular`,
  seguro: `seguro asegurar asegurado perdida perder extravio extraviar robo`,
};
